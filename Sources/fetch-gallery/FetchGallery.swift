import ArgumentParser

@main
struct FetchGallery: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fetch-gallery",
        abstract: "Download photo pages, fetch every photo concurrently, and build a thumbnail gallery folder.",
        subcommands: [ThumbnailCommand.self, DownloadCommand.self, ServeDemoCommand.self]
    )
}
