import ArgumentParser

struct DownloadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "download", abstract: "Download every URL listed in a file.")
    func run() async throws { throw ExitCode(2) }
}
