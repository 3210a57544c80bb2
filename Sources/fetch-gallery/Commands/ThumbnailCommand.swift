import ArgumentParser

struct ThumbnailCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "thumbnail", abstract: "Make thumbnails of local image files.")
    func run() async throws { throw ExitCode(2) }
}
