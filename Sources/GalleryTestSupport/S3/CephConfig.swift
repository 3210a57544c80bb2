import Foundation

/// The `ceph.conf` of a one-node test cluster for the RADOS Gateway: one monitor, one OSD that keeps
/// its objects in memory (`memstore`), pools of one replica, no authentication between the daemons
/// (`auth ... required = none`), no manager, no systemd. Everything (monitor store, sockets, logs, pid
/// files) lives in the cluster's private folder; the monitor and the gateway listen on 127.0.0.1 at
/// free ports.
struct CephConfig {
    var directory: String
    var fsid: String
    var monitorPort: UInt16
    var gatewayPort: UInt16

    var path: String { directory + "/ceph.conf" }

    func render() -> String {
        """
        [global]
        fsid = \(fsid)
        mon host = v1:127.0.0.1:\(monitorPort)
        mon initial members = a
        auth cluster required = none
        auth service required = none
        auth client required = none
        # Without it radosgw (16.2) asks the monitor for a secure session and never connects.
        ms mon client mode = crc
        osd objectstore = memstore
        # No device class to report at start: one command fewer that can meet the fsid race.
        osd class update on start = false
        memstore device bytes = 2147483648
        osd pool default size = 1
        osd pool default min size = 1
        mon allow pool size one = true
        mon warn on pool no redundancy = false
        osd pool default pg num = 8
        osd pool default pgp num = 8
        mon max pg per osd = 1000
        osd crush chooseleaf type = 0
        run dir = \(directory)/run
        admin socket = \(directory)/run/$name.asok
        pid file = \(directory)/run/$name.pid
        log file = \(directory)/log/$name.log
        keyring = \(directory)/keyring
        mon data = \(directory)/mon/$cluster-$id
        osd data = \(directory)/osd/$cluster-$id

        [client.rgw]
        rgw frontends = beast endpoint=127.0.0.1:\(gatewayPort)
        rgw data = \(directory)/rgw
        # Virtual-hosted requests name the bucket in the host: BUCKET.localhost (libcurl resolves
        # *.localhost to the loopback address itself).
        rgw dns name = localhost

        """
    }
}
