import ArgumentParser
import Foundation

/// `thumbnail`'s files taken out of the command line before ArgumentParser sees it.
///
/// ArgumentParser stores each value of a repeating argument by copying every value parsed before it (and the
/// set of their positions), so a command line of n files costs n² work: 8,000 files took 1.6 s to parse and
/// 2,000 took 0.14 s, more than a tenth of the work a thumbnail of a small photo takes. `fetch-gallery
/// thumbnail dir/*.jpg` is how the command is meant to be used, so the files are split off here in one pass
/// and the parser gets the options and the first file (its checks still run); ``ThumbnailCommand`` then
/// takes every file.
///
/// Which tokens are option values is read from the command's own definition (its help dump), so an option
/// added later is split correctly without a list here to keep in step.
enum ThumbnailArguments {
    /// The command line (from `thumbnail` on) as the parser gets it, and every file in order; nil when the
    /// command's definition cannot be read (the parser then gets the whole command line).
    static func split(_ arguments: [String]) -> (parsed: [String], files: [String])? {
        guard let valued = optionsTakingValues() else { return nil }
        // The subcommand's own name first.
        var parsed = Array(arguments.prefix(1))
        var files: [String] = []
        var i = 1
        while i < arguments.count {
            let argument = arguments[i]
            i += 1
            if argument == "-" || !argument.hasPrefix("-") {
                // A file (`-` alone is a value, as ArgumentParser reads it).
                files.append(argument)
            } else if argument == "--" {
                files += arguments[i...]
                break
            } else {
                parsed.append(argument)
                // `--size 256`: the value goes with its option, whatever it looks like (`--size -1` is refused
                // by the command, not read as a flag); `--size=256` is one token.
                if valued.contains(argument), i < arguments.count {
                    parsed.append(arguments[i])
                    i += 1
                }
            }
        }
        if let first = files.first { parsed += ["--", first] }
        return (parsed, files)
    }

    /// Every spelling (`--out`, `-o`) of the options of `thumbnail` that take a value.
    static func optionsTakingValues() -> Set<String>? {
        struct Dump: Decodable {
            struct Command: Decodable { var arguments: [Argument]? }
            struct Argument: Decodable {
                struct Name: Decodable { var kind: String; var name: String }
                var kind: String
                var names: [Name]?
            }
            var command: Command
        }
        guard let dump = try? JSONDecoder().decode(Dump.self, from: Data(ThumbnailCommand._dumpHelp().utf8)) else { return nil }
        var spellings: Set<String> = []
        for argument in dump.command.arguments ?? [] where argument.kind == "option" {
            for name in argument.names ?? [] { spellings.insert((name.kind == "short" ? "-" : "--") + name.name) }
        }
        return spellings
    }
}
