import StoryKit
import Testing

/// One story as the argument of a parameterized Swift Testing test, named
/// after the story.
///
/// ```swift
/// import StoryKitTesting
/// import Testing
///
/// @Test(arguments: StoryCase.all(in: "Stories"))
/// func story(_ story: StoryCase) async {
///     await story.run(steps: [BasketSteps.self])
/// }
/// ```
public struct StoryCase: Sendable, CustomTestStringConvertible {
    /// The story.
    public let story: Story

    /// The story's name, as Swift Testing shows it.
    public var testDescription: String { "\(story.name) (\(story.location.fileAndLine))" }

    /// Every story under the paths, relative to the package root (found
    /// from `#filePath` of the calling test file).
    public static func all(in paths: String..., filePath: String = #filePath) -> [StoryCase] {
        let root = PackageRoot.containing(filePath)
        let (stories, _) = StoryRun.stories(in: paths.map { $0.hasPrefix("/") ? $0 : root + "/" + $0 })
        return stories.map(StoryCase.init(story:))
    }

    /// Runs the story with the step classes and records a Swift Testing
    /// issue at the story's file and line for every step that failed or is
    /// undefined, and for every problem in the story files.
    public func run(steps: [any StepDefinitions.Type], strict: Bool = false) async {
        switch await StoryRun.run(story, steps: steps, strict: strict) {
        case .failure(let error):
            for diagnostic in error.diagnostics {
                Issue.record(Comment(rawValue: diagnostic.rendered()), sourceLocation: sourceLocation(diagnostic.location ?? story.location))
            }
        case .success(let result):
            for step in result.steps where step.status == .failed || step.status == .ambiguous {
                let place = step.error?.location.map { "\n  at \($0.displayFileAndLine)" } ?? ""
                Issue.record(
                    Comment(rawValue: "\(step.step.line): \(step.error?.message ?? step.status.rawValue)\(place)"),
                    sourceLocation: sourceLocation(step.step.location))
            }
            for hook in result.hooks where hook.status == .failed {
                Issue.record(Comment(rawValue: hook.error?.message ?? "a hook failed"), sourceLocation: sourceLocation(story.location))
            }
            for step in result.steps where step.status == .undefined {
                Issue.record(Comment(rawValue: "undefined step: \(step.step.line)"), sourceLocation: sourceLocation(step.step.location))
            }
        }
    }

    private func sourceLocation(_ location: StoryKit.SourceLocation) -> Testing.SourceLocation {
        let name = location.file.split(separator: "/").last.map(String.init) ?? location.file
        return Testing.SourceLocation(
            fileID: "Stories/\(name)", filePath: location.file, line: max(location.line, 1), column: max(location.column, 1))
    }
}
