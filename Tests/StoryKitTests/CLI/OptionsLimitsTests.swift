import Foundation
import Testing
@testable import StoryKit

@Suite(.timeLimit(.minutes(10))) struct OptionsLimitsTests {
    static func problem(_ arguments: [String]) -> String? {
        do {
            _ = try Options(arguments: arguments + ["x.stories"])
            return nil
        } catch {
            return error.problem
        }
    }

    @Test("--step-timeout must be finite, from a millisecond to a day", arguments: [
        ("inf", false), ("nan", false), ("1e300", false), ("2e10", false), ("0", false), ("-1", false),
        ("86401", false), ("0.0001", false), ("infinity", false), ("86400", true), ("0.5", true), ("30", true),
    ])
    func stepTimeout(value: String, isAccepted: Bool) {
        let problem = Self.problem(["--step-timeout", value])
        #expect((problem == nil) == isAccepted)
        if let problem { #expect(problem.contains("86400")) }
    }

    @Test("--retry is at most 100", arguments: [("100", true), ("0", true), ("101", false), ("99999999999999999999", false), ("-1", false)])
    func retry(value: String, isAccepted: Bool) {
        #expect((Self.problem(["--retry", value]) == nil) == isAccepted)
    }

    @Test("--jobs is bounded by the open-file limit and by 64 (4 a core past 16 cores)")
    func jobs() throws {
        #expect(Options.mostJobs(openFileLimit: 1024, cores: 2).count == 64)
        #expect(Options.mostJobs(openFileLimit: 1 << 20, cores: 64).count == 256)
        let small = Options.mostJobs(openFileLimit: 100, cores: 2)
        #expect(small.count == 17 && small.isOpenFileBound && small.reason.contains("open-file limit is 100"))
        #expect(Options.mostJobs(openFileLimit: 10, cores: 2).count == 1)
        let problem = try #require(Self.problem(["--jobs", "300"]))
        #expect(problem.contains("at most"))
        #expect(Self.problem(["--jobs", "2"]) == nil)
    }

    @Test("The same report file twice is a usage error, however it is spelled")
    func sameReportPath() throws {
        let folder = try Binary.temporaryFolder("same-report")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let a = folder + "/a.xml"
        #expect(Self.problem(["--junit", a, "--json", a])?.contains("--junit and --json would both write") == true)
        #expect(Self.problem(["--junit", a, "--json", folder + "/./a.xml"]) != nil)
        #expect(Self.problem(["--junit", a, "--json", folder + "/sub/../a.xml"]) == nil)  // sub does not exist
        try FileManager.default.createDirectory(atPath: folder + "/sub", withIntermediateDirectories: false)
        #expect(Self.problem(["--junit", a, "--json", folder + "/sub/../a.xml"]) != nil)
        symlink("a.xml", folder + "/link.xml")
        #expect(Self.problem(["--junit", a, "--html", folder + "/link.xml"]) != nil)  // a dangling link to it
        FileManager.default.createFile(atPath: a, contents: nil)
        link(a, folder + "/hard.xml")
        #expect(Self.problem(["--junit", folder + "/link.xml", "--rerun", folder + "/hard.xml"]) != nil)
        #expect(Self.problem(["--junit", a, "--json", folder + "/b.xml"]) == nil)
        // Standard output and devices may take several reports.
        #expect(Self.problem(["--junit", "/dev/null", "--json", "/dev/null"]) == nil)
        #expect(Self.problem(["--junit", "/dev/stdout", "--json", "/dev/stdout"]) == nil)
    }

    @Test("A usage error stops the run before anything runs, with exit 2")
    func exitStatus() async throws {
        let folder = try Binary.temporaryFolder("same-report")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for arguments in [
            ["--junit", folder + "/a.xml", "--json", folder + "/a.xml"], ["--step-timeout", "inf"],
            ["--jobs", "100000"], ["--retry", "1000"],
        ] {
            let (status, text) = await StoryRunTests.run(arguments + [Golden.fixture("stories/good/basket.stories")])
            #expect(status == .inputError)
            #expect(text.contains("error:"))
            #expect(!text.contains("PASSED"))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
        var lines: [String] = []
        let status = StoryKit.MergeCommand.run(arguments: ["x.json", "--json", "a.json", "--html", "./a.json"], output: { lines.append($0) })
        #expect(status == .inputError)
    }
}
