import Foundation
import Testing
@testable import StoryKit

@Suite(.timeLimit(.minutes(10))) struct SourceLocationTests {
    @Test("A location prints as file:line, with the column when known")
    func description() {
        #expect(SourceLocation(file: "a.stories", line: 3).description == "a.stories:3")
        #expect(SourceLocation(file: "a.feature", line: 3, column: 5).description == "a.feature:3:5")
    }

    @Test("A Swift file outside the working directory is shown relative to its package's root; one in no package as given")
    func packageRelative() throws {
        let root = NSTemporaryDirectory() + "storyrun-package-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: root + "/Sources/Shop", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let outside = NSTemporaryDirectory() + "storyrun-nopackage-\(UUID().uuidString)/Steps.swift"
        #expect(SourceLocation(file: outside, line: 4).displayFileAndLine == outside + ":4")
        try "// swift-tools-version:6.0".write(toFile: root + "/Package.swift", atomically: true, encoding: .utf8)
        #expect(SourceLocation(file: root + "/Sources/Shop/ShopSteps.swift", line: 21).displayFileAndLine == "Sources/Shop/ShopSteps.swift:21")
        // Story files keep their path: only Swift files belong to a package.
        #expect(SourceLocation(file: root + "/Stories/a.feature", line: 1).displayPath == root + "/Stories/a.feature")
    }
}
