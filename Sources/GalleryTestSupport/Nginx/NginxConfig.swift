/// The nginx configuration the harness generates: one server on 127.0.0.1, everything it writes
/// (pid, logs, temp folders) inside the harness's own folder, so it runs as root or not and
/// needs neither /var/log/nginx nor /run.
struct NginxConfig {
    var port: UInt16
    var root: String
    var directory: String
    var extraServerDirectives: String
    /// Certificate and key (PEM) to serve https with HTTP/2 instead of plain http/1.1.
    var tls: (certificate: String, key: String)? = nil
    /// A second, plain-http server on this port answering nginx's stub_status (connections accepted), not
    /// logged: it counts the TCP connections a client opened, those that failed in TLS included.
    var statusPort: UInt16? = nil

    /// Access-log fields, tab-separated, parsed by `NginxServer.LogEntry`.
    static let logFields = [
        "$msec", "$request_method", "$uri", "$args", "$status", "$body_bytes_sent", "$bytes_sent",
        "$http_range", "$http_if_range", "$connection", "$connection_requests", "$server_protocol",
    ]

    private var listen: String {
        guard let tls else { return "listen 127.0.0.1:\(port);" }
        return """
        listen 127.0.0.1:\(port) ssl http2;
                ssl_certificate "\(tls.certificate)";
                ssl_certificate_key "\(tls.key)";
        """
    }

    var text: String {
        """
        daemon off;
        master_process off;
        worker_processes 1;
        pid "\(directory)/nginx.pid";
        error_log "\(directory)/error.log" \(tls == nil ? "notice" : "info");
        events { worker_connections 512; }
        http {
            log_format fetchgallery '\(Self.logFields.joined(separator: "\t"))';
            access_log "\(directory)/access.log" fetchgallery;
            client_body_temp_path "\(directory)/client_body";
            proxy_temp_path "\(directory)/proxy";
            fastcgi_temp_path "\(directory)/fastcgi";
            uwsgi_temp_path "\(directory)/uwsgi";
            scgi_temp_path "\(directory)/scgi";
            types {
                image/jpeg jpg jpeg;
                image/png png;
                image/gif gif;
                image/webp webp;
                text/html html;
                text/plain txt;
            }
            default_type application/octet-stream;
            sendfile on;
            tcp_nopush on;
            keepalive_timeout 60s;
            keepalive_requests 10000;
            etag on;
            server_tokens off;
            server {
                \(listen)
                server_name localhost;
                root "\(root)";
                location / { }
                \(extraServerDirectives)
            }
            \(statusPort.map { "server { listen 127.0.0.1:\($0); access_log off; location / { stub_status; } }" } ?? "")
        }

        """
    }
}
