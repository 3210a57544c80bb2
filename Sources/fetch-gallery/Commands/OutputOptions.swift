import ArgumentParser

extension ProgressMode: ExpressibleByArgument {}

/// `--progress` and `--quiet`, shared by the commands that show progress.
struct OutputOptions: ParsableArguments {
    @Option(help: "Progress display: auto (a live line on a terminal, plain lines otherwise), tty, plain, json, none.")
    var progress: ProgressMode = .auto

    @Flag(name: .shortAndLong, help: "Print errors only.")
    var quiet = false

    /// The renderer the options ask for.
    var renderer: any ProgressRenderer { progress.renderer(quiet: quiet) }
}
