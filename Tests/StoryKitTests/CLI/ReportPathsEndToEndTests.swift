import Foundation
import Testing
@testable import StoryKit

/// Report paths that are not plain files, through the built executable.
@Suite(.timeLimit(.minutes(10))) struct ReportPathsEndToEndTests {
    static let story = Golden.fixture("stories/good/basket.stories")

    static func kind(_ path: String) -> mode_t {
        var status = stat()
        return lstat(path, &status) == 0 ? status.st_mode & S_IFMT : 0
    }

    @Test("--junit /dev/stdout writes the report to standard output")
    func standardOutput() async throws {
        let folder = try Binary.temporaryFolder("report-paths")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let outcome = try await Binary.run(["--junit", "/dev/stdout", Self.story], in: folder, timeout: 60)
        #expect(outcome.status == 0 && !outcome.isSignaled)
        #expect(outcome.output.contains("<testsuites name=\"storyrun\""))
        #expect(outcome.output.contains("Stories: "))
    }

    @Test("Several reports on standard output come whole, one after another, after the terminal report")
    func severalOnStandardOutput() async throws {
        let folder = try Binary.temporaryFolder("report-paths")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // Enough stories that reports written at the same time would mix
        // (their steps are undefined here: every report is written all the same).
        let story = "Story: Adding apples NUMBER\n  Given an empty basket\n  When I add 3 apples to the basket\n  Then the basket holds 3 apples.\n\n"
        let text = (1...400).map { story.replacingOccurrences(of: "NUMBER", with: String($0)) }.joined()
        try text.write(toFile: folder + "/many.stories", atomically: true, encoding: .utf8)
        let outcome = try await Binary.run(
            ["--messages", "/dev/stdout", "--junit", "/dev/stdout", "--json", "/dev/stdout", "many.stories"], in: folder, timeout: 120)
        #expect(outcome.status == 0 && !outcome.isSignaled, "\(outcome.output.suffix(500))")
        let lines = outcome.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // The terminal report, then every Messages line, then JUnit, then Cucumber JSON.
        let summary = try #require(lines.firstIndex { $0.hasPrefix("Stories: ") })
        let firstMessage = try #require(lines.firstIndex { $0.hasPrefix("{\"meta\"") })
        let junit = try #require(lines.firstIndex { $0.hasPrefix("<?xml") })
        let json = try #require(lines.firstIndex { $0.hasPrefix("[") })
        #expect(summary < firstMessage && firstMessage < junit && junit < json)
        for line in lines[firstMessage..<junit] {
            #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil, "not a whole Messages line: \(line.prefix(200))")
        }
        let xml = lines[junit..<json].joined(separator: "\n")
        #expect(xml.components(separatedBy: "<testcase ").count == 401)
        #expect(xml.hasSuffix("</testsuites>\n") || xml.hasSuffix("</testsuites>"))
        let features = try JSONSerialization.jsonObject(with: Data(lines[json...].joined(separator: "\n").utf8)) as? [[String: Any]]
        #expect((features?.first?["elements"] as? [Any])?.count == 400)
    }

    @Test("A device stays a device; a symlinked report path stays a symlink")
    func deviceAndSymlink() async throws {
        let folder = try Binary.temporaryFolder("report-paths")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // As root a null device of our own, never the system's /dev/null.
        var device = "/dev/null"
        if getuid() == 0, mknod(folder + "/null", S_IFCHR | 0o666, dev_t(1 << 8 | 3)) == 0 {
            let probe = open(folder + "/null", O_WRONLY)
            if probe >= 0 { close(probe); device = folder + "/null" }
        }
        try FileManager.default.createDirectory(atPath: folder + "/out", withIntermediateDirectories: true)
        symlink("out/report.xml", folder + "/link.xml")
        let outcome = try await Binary.run(["--junit", device, "--json", "link.xml", Self.story], in: folder, timeout: 60)
        #expect(outcome.status == 0, "\(outcome.output)")
        #expect(Self.kind(device) == S_IFCHR)
        #expect(Self.kind(folder + "/link.xml") == S_IFLNK)
        #expect(Self.kind(folder + "/out/report.xml") == S_IFREG)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder + "/out") == ["report.xml"])
    }

    @Test("The same report path twice stops the run before any story, with exit 2")
    func samePathTwice() async throws {
        let folder = try Binary.temporaryFolder("report-paths")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let outcome = try await Binary.run(["--junit", "a.xml", "--json", "./a.xml", Self.story], in: folder, timeout: 60)
        #expect(outcome.status == 2)
        #expect(outcome.output.contains("would both write"))
        #expect(!outcome.output.contains("Stories:"))
        #expect(!FileManager.default.fileExists(atPath: folder + "/a.xml"))
    }

    @Test("On a full disk the run exits 2 naming the report, and leaves no temporary file and no earlier report")
    func fullDisk() async throws {
        // A tiny tmpfs in a mount namespace of its own: needs root and unshare.
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare"),
            let binary = Binary.path
        else { return }
        let folder = try Binary.temporaryFolder("report-paths")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let disk = folder + "/disk"
        try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: true)
        let script = """
            mount -t tmpfs -o size=8k tmpfs \(disk) || exit 77
            head -c 3000 /dev/zero > \(disk)/pad
            echo OLD > \(disk)/r.html
            \(binary) --html \(disk)/r.html \(Self.story); echo "status=$?"
            ls -A \(disk)
            """
        let outcome = try await Binary.run(["-m", "sh", "-c", script], in: folder, executable: "/usr/bin/unshare", timeout: 60)
        guard outcome.status != 77 else { return }  // no tmpfs here
        #expect(outcome.output.contains("cannot write the report \(disk)/r.html: No space left on device"))
        #expect(outcome.output.contains("help: free some space"))
        #expect(outcome.output.contains("status=2"))
        // The earlier r.html was removed when the run started (the page it
        // freed is too little for the new one): no report is at the path.
        #expect(outcome.output.hasSuffix("status=2\npad\n"), "\(outcome.output)")
    }
}
