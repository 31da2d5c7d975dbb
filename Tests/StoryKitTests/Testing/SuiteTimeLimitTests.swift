import Foundation
import Testing

/// Every suite's time limit is the Makefile's 10 minutes. Swift Testing
/// starts a test's clock when it creates the test's task, not when a thread
/// runs it: on 2 cores a quick test can wait minutes behind end-to-end tests
/// that hold the pool's threads, so a shorter limit fails tests that never
/// hung (a 2-minute suite failed that way beside a CPU-bound load, its test
/// taking 2 s once it ran). A hang still fails the test that hung, by name.
@Suite(.timeLimit(.minutes(10))) struct SuiteTimeLimitTests {
    @Test("No test suite or test sets a time limit other than 10 minutes")
    func everyLimitIsTenMinutes() throws {
        let tests = Golden.root + "/Tests"
        let files = try #require(FileManager.default.enumerator(atPath: tests)).compactMap { $0 as? String }
        let limit = /\.timeLimit\(\s*\.(minutes|seconds|hours)\(\s*(\d+)\s*\)\s*\)/
        var checked = 0
        var others: [String] = []
        for file in files where file.hasSuffix(".swift") {
            let text = try String(contentsOfFile: tests + "/" + file, encoding: .utf8)
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                for match in line.matches(of: limit) {
                    checked += 1
                    if match.output.1 != "minutes" || match.output.2 != "10" {
                        others.append("Tests/\(file):\(index + 1): \(match.output.0)")
                    }
                }
            }
        }
        #expect(checked > 100, "only \(checked) time limits found under \(tests)")
        #expect(others.isEmpty, "set these to .timeLimit(.minutes(10)):\n\(others.joined(separator: "\n"))")
    }
}
