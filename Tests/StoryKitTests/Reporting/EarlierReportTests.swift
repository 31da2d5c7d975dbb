import Foundation
import Testing
@testable import StoryKit

/// ``EarlierReport``: what it removes when a run starts (a regular file at
/// the path itself, nothing else), and how a report thread uses it.
@Suite(.timeLimit(.minutes(10))) struct EarlierReportTests {
    typealias Folder = ReportFileTests.Folder

    @Test("A regular file at the path is removed, and its mode returned")
    func regularFile() throws {
        let folder = try Folder()
        try "old".write(toFile: folder.path + "/r.xml", atomically: false, encoding: .utf8)
        chmod(folder.path + "/r.xml", 0o640)
        #expect(EarlierReport.remove(at: EarlierReport.anchored([folder.path + "/r.xml", folder.path + "/none.xml"])) == [folder.path + "/r.xml": 0o640])
        #expect(folder.names.isEmpty)
    }

    @Test("A symlink, its target, a FIFO, a folder and /dev/stdout are left as they are")
    func notRegular() throws {
        let folder = try Folder()
        try "old".write(toFile: folder.path + "/target.xml", atomically: false, encoding: .utf8)
        symlink("target.xml", folder.path + "/link.xml")
        mkfifo(folder.path + "/fifo", 0o600)
        try FileManager.default.createDirectory(atPath: folder.path + "/dir", withIntermediateDirectories: false)
        let paths = ["link.xml", "fifo", "dir"].map { folder.path + "/" + $0 } + ["/dev/stdout", "/dev/null"]
        #expect(EarlierReport.remove(at: EarlierReport.anchored(paths)).isEmpty)
        #expect(folder.names == ["dir", "fifo", "link.xml", "target.xml"])
        #expect(folder.kind("link.xml") == S_IFLNK && folder.kind("fifo") == S_IFIFO && folder.kind("dir") == S_IFDIR)
        #expect(folder.text("target.xml") == "old")
    }

    @Test("A relative path is anchored in the current folder before the run starts; others are left as given")
    func anchoring() {
        let folder = FileManager.default.currentDirectoryPath
        let anchored = EarlierReport.anchored(["r.xml", "out/r.json", "/abs/r.html", "/dev/stdout", "/dev/fd/3"])
        #expect(anchored.map(\.given) == ["r.xml", "out/r.json", "/abs/r.html", "/dev/stdout", "/dev/fd/3"])
        #expect(anchored.map(\.anchored) == [folder + "/r.xml", folder + "/out/r.json", "/abs/r.html", "/dev/stdout", "/dev/fd/3"])
    }

    @Test("A report written in a batch keeps the mode of the report removed from its path")
    func modeKept() throws {
        let folder = try Folder()
        let path = folder.path + "/r.txt"
        try "old".write(toFile: path, atomically: false, encoding: .utf8)
        chmod(path, 0o600)
        let batch = ReportBatch()
        batch.earlierModes = EarlierReport.remove(at: EarlierReport.anchored([path]))
        #expect(folder.names.isEmpty)
        var problems: [Diagnostic] = []
        batch.collect {
            do throws(Diagnostic) { try AtomicFile.write("new", to: path) } catch { problems.append(error) }
        }
        problems += batch.publish()
        #expect(problems.isEmpty)
        #expect(folder.text("r.txt") == "new")
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect(attributes[.posixPermissions] as? Int == 0o600)
    }

    /// Writes the number of events it took to its path, in `finish()`.
    struct CountingReporter: Reporter {
        let path: String
        var events = 0
        mutating func handle(_ event: RunEvent) { events += 1 }
        mutating func finish() throws { try AtomicFile.write("\(events) events\n", to: path) }
    }

    @Test("A report thread removes the earlier reports before it takes any event, and writes the new ones at the end", .timeLimit(.minutes(10)))
    func reportThread() throws {
        let folder = try Folder()
        let path = folder.path + "/r.txt"
        try "old".write(toFile: path, atomically: false, encoding: .utf8)
        let thread = ReportThread(reporters: [CountingReporter(path: path)], replacing: [path])
        // The thread removes it as it starts, while no event has come.
        let start = Date()
        while FileManager.default.fileExists(atPath: path), Date().timeIntervalSince(start) < 10 { usleep(1_000) }
        #expect(!FileManager.default.fileExists(atPath: path))
        thread.send(.runStarted(fileCount: 1))
        thread.send(.runFinished(RunSummary()))
        let batch = ReportBatch()
        let problems = thread.finish(into: batch).map(\.problem) + batch.publish()
        #expect(problems.isEmpty)
        #expect(folder.text("r.txt") == "2 events\n")
    }
}
