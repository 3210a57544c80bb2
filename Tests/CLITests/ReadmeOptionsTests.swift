import Foundation
import GalleryTestSupport
import Testing

/// The README's table of `run` options and `fetch-gallery help run` name the same options.
@Suite struct ReadmeOptionsTests {
    static let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../README.md").standardized.path

    /// The long options named in the first column of the table under "### Options of `run`".
    static func readmeOptions() throws -> Set<String> {
        let text = try String(contentsOfFile: readme, encoding: .utf8)
        let start = try #require(text.range(of: "### Options of `run`"), "no options table in \(readme)")
        let section = text[start.upperBound...]
        let end = section.range(of: "\n### ")?.lowerBound ?? section.endIndex
        var options: Set<String> = []
        for line in section[..<end].split(separator: "\n") where line.hasPrefix("| `") {
            // Cells are split on unescaped bars: `auto\|jpeg` stays in its cell.
            let first = line.replacingOccurrences(of: "\\|", with: " ").split(separator: "|").first ?? ""
            options.formUnion(first.matches(of: /--[a-z0-9-]+/).map { String($0.output) })
        }
        return options
    }

    /// The long options `help run` lists (`--help` left out).
    static func helpOptions() throws -> Set<String> {
        let help = try ProcessRunner.run(GalleryCLIKit.binary, ["help", "run"], timeout: 30)
        #expect(help.exitCode == 0, "\(help.stderrText)")
        let listing = help.stdoutText + help.stderrText
        let options = try #require(listing.range(of: "OPTIONS:"), "no OPTIONS in help run")
        var names: Set<String> = []
        for line in listing[options.upperBound...].split(separator: "\n") {
            if let match = line.firstMatch(of: /^  (?:-[a-z], )?(--[a-z0-9-]+)/) { names.insert(String(match.output.1)) }
        }
        names.remove("--help")
        return names
    }

    @Test func theReadmeTableListsEveryOptionOfRunAndNoOther() throws {
        let readme = try Self.readmeOptions()
        let help = try Self.helpOptions()
        #expect(help.count > 30, "\(help.sorted())")
        #expect(help.subtracting(readme).isEmpty, "in help run, not in the README's table: \(help.subtracting(readme).sorted())")
        #expect(readme.subtracting(help).isEmpty, "in the README's table, not in help run: \(readme.subtracting(help).sorted())")
    }
}
