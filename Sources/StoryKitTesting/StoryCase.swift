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
    public var testDescription: String { "\(story.name) (\(story.location.displayFileAndLine))" }

    /// Every story under the paths, relative to the package root (found
    /// from `#filePath` of the calling test file).
    public static func all(in paths: String..., filePath: String = #filePath) -> [StoryCase] {
        let root = PackageRoot.containing(filePath)
        let (stories, _) = StoryRun.stories(in: paths.map { $0.hasPrefix("/") ? $0 : root + "/" + $0 })
        return stories.map(StoryCase.init(story:))
    }

    /// Runs the story with the step classes and records a Swift Testing
    /// issue at the story's file and line for every step that failed or is
    /// undefined, for every hook that failed, and for every step definition
    /// that was rejected.
    public func run(steps: [any StepDefinitions.Type], strict: Bool = false) async {
        for problem in await problems(steps: steps, strict: strict) {
            Issue.record(Comment(rawValue: problem.message), sourceLocation: sourceLocation(problem.location))
        }
    }

    /// A problem to report as an issue, with where it is.
    struct Problem: Equatable {
        var message: String
        var location: StoryKit.SourceLocation
    }

    /// Runs the story and lists what went wrong.
    func problems(steps: [any StepDefinitions.Type], strict: Bool) async -> [Problem] {
        switch await StoryRun.run(story, steps: steps, strict: strict) {
        case .failure(let error):
            return error.diagnostics.map { Problem(message: $0.rendered(), location: $0.location ?? story.location) }
        case .success(let result):
            var problems: [Problem] = []
            for step in result.steps {
                switch step.status {
                case .failed, .ambiguous:
                    let place = step.error?.location.map { "\n  at \($0.displayFileAndLine)" } ?? ""
                    problems.append(Problem(
                        message: "\(step.step.line): \(step.error?.message ?? step.status.rawValue)\(place)",
                        location: step.step.location))
                case .undefined:
                    problems.append(Problem(message: "undefined step: \(step.step.line)", location: step.step.location))
                case .passed, .skipped:
                    break
                }
            }
            for hook in result.hooks where hook.status == .failed {
                problems.append(Problem(message: hook.error?.message ?? "a hook failed", location: story.location))
            }
            return problems
        }
    }

    private func sourceLocation(_ location: StoryKit.SourceLocation) -> Testing.SourceLocation {
        let name = location.file.split(separator: "/").last.map(String.init) ?? location.file
        return Testing.SourceLocation(
            fileID: "Stories/\(name)", filePath: location.file, line: max(location.line, 1), column: max(location.column, 1))
    }
}
