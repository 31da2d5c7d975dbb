import Foundation
import StoryKit

/// D step definitions registered in a loop, each with two integer captures
/// and a no-op body; D comes from the environment (`BENCH_DEFINITIONS`).
final class WidgetSteps: StepDefinitions {
    required init() {}

    static func define(_ step: StepMap<WidgetSteps>) {
        let count = Int(ProcessInfo.processInfo.environment["BENCH_DEFINITIONS"] ?? "") ?? 10
        step("^the service answers in (\\d+) ms$") { (_: WidgetSteps, milliseconds: Int) in
            try await Task.sleep(nanoseconds: UInt64(milliseconds) * 1_000_000)
        }
        for index in 0..<count {
            step("^the widget\(index) has (\\d+) parts and (\\d+) bolts$") { (_: WidgetSteps, parts: Int, bolts: Int) in }
        }
    }
}

await StoryRun.main(steps: [WidgetSteps.self])
