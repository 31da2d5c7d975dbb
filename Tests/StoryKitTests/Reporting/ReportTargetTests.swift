import Foundation
import Testing
@testable import StoryKit

/// ``ReportTarget``: a report path is resolved once, when the run starts,
/// and what a step does to the path or its folder later cannot redirect
/// the report.
@Suite(.timeLimit(.minutes(10))) struct ReportTargetTests {
    typealias Folder = ReportFileTests.Folder
    typealias CountingReporter = EarlierReportTests.CountingReporter

    /// Runs a report thread for the report at `path`, calling `duringRun`
    /// between the run's start and its end (where a step would); returns
    /// what could not be written.
    func run(reportAt path: String, duringRun: () throws -> Void) throws -> [Diagnostic] {
        let thread = ReportThread(reporters: [CountingReporter(path: path)], replacing: [path])
        thread.send(.runStarted(fileCount: 1))
        try duringRun()
        thread.send(.runFinished(RunSummary()))
        let batch = ReportBatch()
        return thread.finish(into: batch).map(\.problem) + batch.publish()
    }

    /// Before, the path was looked at again when the report was written:
    /// the symlink was followed and the victim overwritten.
    @Test("A symlink planted during the run where a regular report was is replaced, its target untouched")
    func plantedSymlink() throws {
        let folder = try Folder()
        let path = folder.path + "/r.txt"
        try "old".write(toFile: path, atomically: false, encoding: .utf8)
        try "victim".write(toFile: folder.path + "/victim", atomically: false, encoding: .utf8)
        let problems = try run(reportAt: path) {
            // The earlier report goes as the thread starts; the step then
            // plants its link.
            let start = Date()
            while FileManager.default.fileExists(atPath: path), Date().timeIntervalSince(start) < 10 { usleep(1_000) }
            #expect(symlink(folder.path + "/victim", path) == 0)
        }
        #expect(problems.isEmpty, "\(problems)")
        #expect(folder.text("victim") == "victim")
        #expect(folder.kind("r.txt") == S_IFREG)
        #expect(folder.text("r.txt") == "2 events\n")
    }

    /// Before, the report went into `other/`, through the symlink.
    @Test("A report folder swapped for a symlink during the run: the report goes into the folder it was, never the other")
    func swappedFolder() throws {
        let folder = try Folder()
        let manager = FileManager.default
        try manager.createDirectory(atPath: folder.path + "/out", withIntermediateDirectories: false)
        try manager.createDirectory(atPath: folder.path + "/other", withIntermediateDirectories: false)
        let problems = try run(reportAt: folder.path + "/out/r.txt") {
            try manager.moveItem(atPath: folder.path + "/out", toPath: folder.path + "/moved")
            #expect(symlink("other", folder.path + "/out") == 0)
        }
        #expect(problems.isEmpty, "\(problems)")
        #expect(try manager.contentsOfDirectory(atPath: folder.path + "/other").isEmpty)
        #expect(folder.text("moved/r.txt") == "2 events\n")
    }

    @Test("A symlinked report path is followed when the run starts: a link changed later does not move the report")
    func linkChangedLater() throws {
        let folder = try Folder()
        try "first".write(toFile: folder.path + "/first.txt", atomically: false, encoding: .utf8)
        try "second".write(toFile: folder.path + "/second.txt", atomically: false, encoding: .utf8)
        #expect(symlink("first.txt", folder.path + "/r.txt") == 0)
        let problems = try run(reportAt: folder.path + "/r.txt") {
            unlink(folder.path + "/r.txt")
            #expect(symlink("second.txt", folder.path + "/r.txt") == 0)
        }
        #expect(problems.isEmpty, "\(problems)")
        #expect(folder.text("first.txt") == "2 events\n")
        #expect(folder.text("second.txt") == "second")
    }

    @Test("A folder missing when the run starts fails at the end naming it, even when a step makes it")
    func missingFolder() throws {
        let folder = try Folder()
        let problems = try run(reportAt: folder.path + "/later/r.txt") {
            try FileManager.default.createDirectory(atPath: folder.path + "/later", withIntermediateDirectories: false)
        }
        #expect(problems.count == 1)
        #expect(problems.first?.problem.contains("later/r.txt") == true)
        #expect(problems.first?.help?.contains("create the folder \(folder.path)/later first") == true)
        #expect(folder.names == ["later"])
    }

    @Test("A relative report path's folder is named as given in messages")
    func relativeFolder() throws {
        let target = try ReportTarget(path: "r.txt", opening: FileManager.default.currentDirectoryPath + "/r.txt")
        #expect(target.folderPath == ".")
        let nested = try? ReportTarget(path: "no-such-folder/r.txt", opening: "/tmp/no-such-folder/r.txt")
        #expect(nested == nil)
    }
}
