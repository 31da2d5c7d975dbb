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
        step("^the widget burns (\\d+) ms of CPU$") { (_: WidgetSteps, milliseconds: Int) in
            let end = DispatchTime.now().uptimeNanoseconds + UInt64(milliseconds) * 1_000_000
            var x: UInt64 = 1
            while DispatchTime.now().uptimeNanoseconds < end { x = x &* 6364136223846793005 &+ 1 }
            if x == 42 { print(x) }
        }
        let count = Int(ProcessInfo.processInfo.environment["BENCH_DEFINITIONS"] ?? "") ?? 10
        for index in 0..<count {
            step("^the widget\(index) has (\\d+) parts and (\\d+) bolts$") { (_: WidgetSteps, parts: Int, bolts: Int) in }
        }
    }
}

// `storyrun-bench parse PATH…` only parses and compiles the files, and
// prints how many stories and steps they hold (the parse throughput bench).
// Files are parsed one at a time and dropped, as a run does.
if CommandLine.arguments.dropFirst().first == "parse" {
    var storyCount = 0, stepCount = 0, errorCount = 0
    for folder in CommandLine.arguments.dropFirst(2) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        for name in names.sorted() {
            let (stories, diagnostics) = StoryRun.stories(in: [folder + "/" + name])
            storyCount += stories.count
            stepCount += stories.reduce(0) { $0 + $1.steps.count }
            errorCount += diagnostics.filter(\.isError).count
        }
    }
    print("\(storyCount) stories, \(stepCount) steps, \(errorCount) errors")
    exit(errorCount > 0 ? 2 : 0)
}
await StoryRun.main(steps: [WidgetSteps.self])
