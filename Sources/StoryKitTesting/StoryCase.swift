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
    /// The story; for a case that stands for a problem in a story file,
    /// a story without steps at the problem's place.
    public let story: Story
    /// The problem in a story file this case stands for (a bad line, a
    /// file that cannot be read), which fails it; nil for a story.
    public let diagnostic: Diagnostic?

    init(story: Story) {
        self.story = story
        diagnostic = nil
    }

    init(diagnostic: Diagnostic) {
        let location = diagnostic.location ?? SourceLocation(file: "<story files>", line: 1)
        story = Story(name: "problem: \(diagnostic.problem)", location: location, steps: [])
        self.diagnostic = diagnostic
    }

    /// The story's name, as Swift Testing shows it.
    public var testDescription: String { "\(story.name) (\(story.location.displayFileAndLine))" }

    /// Every story under the paths, relative to the package root (found
    /// from `#filePath` of the calling test file); each problem in the
    /// story files (a bad line, a missing file) is a case too, which fails
    /// at the problem's file:line:col, so a broken file is never dropped
    /// silently.
    public static func all(in paths: String..., filePath: String = #filePath) -> [StoryCase] {
        let root = PackageRoot.containing(filePath)
        let (stories, diagnostics) = StoryRun.stories(in: paths.map { $0.hasPrefix("/") ? $0 : root + "/" + $0 })
        return diagnostics.filter(\.isError).map(StoryCase.init(diagnostic:)) + stories.map(StoryCase.init(story:))
    }

    /// Runs the story with the step classes and records a Swift Testing
    /// issue at the story's file and line for every step that failed or is
    /// undefined (with the snippet that would define it), for every hook
    /// that failed, and for every step definition that was rejected. The
    /// before-run hooks run once per test process, before the first story;
    /// the after-run hooks when the process exits.
    public func run(steps: [any StepDefinitions.Type], strict: Bool = false) async {
        if let diagnostic {
            Issue.record(Comment(rawValue: diagnostic.rendered()), sourceLocation: sourceLocation(story.location))
            return
        }
        for diagnostic in await ProcessRunHooks.shared.begin(steps: steps) {
            Issue.record(Comment(rawValue: diagnostic.rendered()), sourceLocation: sourceLocation(diagnostic.location ?? story.location))
        }
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
                    problems.append(Problem(
                        message: "undefined step: \(step.step.line)\n  define it with:\n" + (step.snippet ?? StoryRun.snippet(for: step.step)),
                        location: step.step.location))
                case .pending where strict:
                    // Under strict a pending step fails, as the command line's --strict.
                    problems.append(Problem(
                        message: "pending step: \(step.step.line)" + (step.error.map { ": " + $0.message } ?? "") + " (strict)",
                        location: step.step.location))
                case .passed, .skipped, .pending:
                    // Swift Testing cannot mark a running test skipped: a
                    // skipped or (not strict) pending story passes.
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
