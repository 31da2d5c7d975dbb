import Foundation
import StoryKit

/// D step definitions registered in a loop, each with two integer captures
/// and a no-op body; D comes from the environment (`BENCH_DEFINITIONS`).
final class WidgetSteps: StepDefinitions {
    required init() {}

    static func define(_ step: StepMap<WidgetSteps>) {
        step("^the service answers in (\\d+) ms$") { (_: WidgetSteps, milliseconds: Int) in
            try await Task.sleep(nanoseconds: UInt64(milliseconds) * 1_000_000)
        }
        let count = Int(ProcessInfo.processInfo.environment["BENCH_DEFINITIONS"] ?? "") ?? 10
        for index in 0..<count {
            step("^the widget\(index) has (\\d+) parts and (\\d+) bolts$") { (_: WidgetSteps, parts: Int, bolts: Int) in }
        }
    }
}

// `storyrun-bench parse PATH…` only parses and compiles the files, and
// prints how many stories and steps they hold (the parse throughput bench).
if CommandLine.arguments.dropFirst().first == "parse" {
    let (stories, diagnostics) = StoryRun.stories(in: Array(CommandLine.arguments.dropFirst(2)))
    print("\(stories.count) stories, \(stories.reduce(0) { $0 + $1.steps.count }) steps, \(diagnostics.count) diagnostics")
    exit(diagnostics.contains(where: \.isError) ? 2 : 0)
}
await StoryRun.main(steps: [WidgetSteps.self])
