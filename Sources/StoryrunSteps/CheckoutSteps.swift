import StoryKit

/// Fixture steps that pass data through the story store to another class.
final class CheckoutSteps: StepDefinitions {
    required init() {}

    static func define(_ step: StepMap<CheckoutSteps>) {
        step("^the customer \"(.*)\" signs in$") { (steps: CheckoutSteps, name: String) in
            steps.store["customer"] = name
        }
        step("^the receipt is addressed to \"(.*)\"$") { (steps: CheckoutSteps, name: String) in
            try expectEqual(try steps.store.value("customer", as: String.self), name)
        }
        step("^the receipt number is stored$") { steps in
            steps.store["customer"] = 42
        }
        step("^nobody has signed in$") { steps in
            try expectNil(steps.store["customer"], "a customer leaked in from another story")
        }
    }
}

/// Fixture steps whose instance state must not leak between stories.
final class MoodSteps: StepDefinitions {
    var cheers = 0

    required init() {}

    static func define(_ step: StepMap<MoodSteps>) {
        step("^the customer cheers$") { steps in steps.cheers += 1 }
        step("^the customer has cheered (\\d+) times?$") { (steps: MoodSteps, count: Int) in
            try expectEqual(steps.cheers, count)
        }
        step("^the customer gives up$") { _ in try fail("the customer gave up") }
        step("I add (.*) to the basket in a hurry") { (steps: MoodSteps, item: String) in
            steps.cheers -= 1
        }
    }
}
