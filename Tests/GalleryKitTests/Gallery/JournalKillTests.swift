import Foundation
import Testing
@testable import GalleryKit
@testable import PhotoGallery

/// SIGKILL for real: the test binary runs itself as a child that appends to a journal,
/// the parent kills it at a random moment, then replays and resumes the journal.
@Suite(.serialized) struct JournalKillTests {
    static let childFolderKey = "GALLERYKIT_JOURNAL_CHILD_FOLDER"
    static let childTestName = "journalChildAppendsUntilKilled"

    /// The child half. Skipped in a normal run; runs only when the parent starts it.
    /// The small compaction threshold makes kills land during compactions too: each photo is seen twice
    /// (as a listing read again would), so the journal holds records to drop and compacts as it grows.
    @Test(.enabled(if: ProcessInfo.processInfo.environment[childFolderKey] != nil))
    func journalChildAppendsUntilKilled() throws {
        let folder = try #require(ProcessInfo.processInfo.environment[Self.childFolderKey])
        let journal = try Journal(folder: folder, options: Journal.Options(compactionThreshold: 96 << 10))
        // Resume as a run would: first finish what the last kill interrupted.
        for id in journal.state.order where journal.state.original(of: id) == nil {
            try journal.append(.original(id: id, file: OriginalFile(path: "photos/\(id).jpg", sha256: Self.sha(id), bytes: id)))
        }
        let start = journal.state.order.count
        let deadline = Date().addingTimeInterval(30)  // bounded even if the parent never kills
        var id = start
        while Date() < deadline {
            try journal.append(Self.seen(id))
            try journal.append(Self.seen(id))
            try journal.append(.original(id: id, file: OriginalFile(path: "photos/\(id).jpg", sha256: Self.sha(id), bytes: id)))
            id += 1
        }
        #expect(id > start)
    }

    @Test func journalSurvivesSIGKILLAtRandomMoments() throws {
        let binary = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let journalPath = folder.path + "/" + GalleryNaming.journalPath
        var previous = 0
        for round in 0..<4 {
            let child = Process()
            child.executableURL = URL(fileURLWithPath: binary)
            child.arguments = ["--testing-library", "swift-testing", "--filter", Self.childTestName]
            child.environment = ProcessInfo.processInfo.environment.merging([Self.childFolderKey: folder.path]) { $1 }
            child.standardOutput = FileHandle.nullDevice
            child.standardError = FileHandle.nullDevice
            try child.run()
            // Wait until the child writes, let it run a random while, then kill it.
            let initialSize = Self.fileSize(journalPath)
            let deadline = Date().addingTimeInterval(20)
            while Date() < deadline, child.isRunning, Self.fileSize(journalPath) == initialSize {
                usleep(1_000)
            }
            usleep(UInt32.random(in: 5_000...150_000))
            #expect(child.isRunning, "round \(round): the child stopped before it was killed")
            kill(child.processIdentifier, SIGKILL)
            child.waitUntilExit()
            #expect(child.terminationReason == .uncaughtSignal && child.terminationStatus == SIGKILL)

            // What the journal says must be a consistent prefix of what the child did.
            let replay = try JournalReplay.read(path: journalPath)
            let state = replay.state
            #expect(state.order == Array(0..<state.order.count), "round \(round): ids out of order or missing")
            #expect(state.order.count >= previous, "round \(round): records were lost")
            for id in state.order.dropLast() {
                #expect(state.original(of: id)?.sha256 == Self.sha(id), "round \(round): photo \(id) lost its original")
                #expect(state.entries[id]?.metadata == Self.metadata(id))
            }
            previous = state.order.count
        }
        #expect(previous > 0)
        // The parent can take over: the dead child's lock is gone and appends land.
        let journal = try Journal(folder: folder.path)
        try journal.append(.failed(id: 0, reason: "parent"))
        #expect(try JournalReplay.read(path: journalPath).state.entries[0]?.failure == "parent")
        #expect(!folder.files().contains { $0.contains("/" + AtomicFile.temporaryPrefix) })
    }

    static func metadata(_ id: Int) -> PhotoMetadata {
        // Names of varying length so records straddle page boundaries.
        PhotoMetadata(id: id, name: String(repeating: "n", count: (id * 37) % 3000), photographer: "p\(id)")
    }

    static func seen(_ id: Int) -> JournalRecord { .seen(metadata(id)) }

    static func sha(_ id: Int) -> String { String(format: "%064x", id) }

    /// Bytes in the journal, 0 when it is not there yet.
    static func fileSize(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
    }
}
