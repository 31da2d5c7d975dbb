import StoryKit

/// Steps of `Fixtures/config` that read the run's user parameters
/// (`-D KEY=VALUE`, the config file's `parameters`), from a step and a hook.
final class ParameterSteps: StepDefinitions {
    /// What the before hook read.
    var seenInHook: String?

    required init() {}

    static func define(_ step: StepMap<ParameterSteps>) {
        step.before { steps in steps.seenInHook = StoryRun.parameters["base-url"] }
        step("^the parameter (\\S+) is \"(.*)\"$") { (steps: ParameterSteps, key: String, value: String) in
            try expectEqual(StoryRun.parameters[key], value)
        }
        step("^the parameter (\\S+) is the number (\\d+)$") { (steps: ParameterSteps, key: String, number: Int) in
            try expectEqual(try StoryRun.parameters.value(key, as: Int.self), number)
        }
        step("^the before hook saw the parameter base-url as \"(.*)\"$") { (steps: ParameterSteps, value: String) in
            try expectEqual(steps.seenInHook, value)
        }
    }
}
