import Foundation
import StoryKit

/// How a customer pays; converts from step text by its raw value.
enum Membership: String, StepArgument {
    case member, guest
}

/// Fixture steps: a shopping basket, with typed arguments of every kind.
final class BasketSteps: StepDefinitions {
    var basket: [String: Int] = [:]
    var membership: Membership = .guest
    var unitPrice: Decimal = 0
    var note = ""

    required init() {}

    static func define(_ step: StepMap<BasketSteps>) {
        step("^As an? (.*)$") { (steps: BasketSteps, role: String) in }
        step("^Given an empty basket$") { steps in steps.basket = [:] }
        step(".* I add (\\d+) (.*) to the basket") { (steps: BasketSteps, count: Int, item: String) in
            steps.basket[item, default: 0] += count
        }
        step("^I remove (\\d+) (.*) from the basket$") { (steps: BasketSteps, count: Int, item: String) in
            let held = steps.basket[item, default: 0]
            guard held >= count else { throw BasketError.notEnough(item: item, held: held) }
            steps.basket[item] = held - count
        }
        step(".* the basket holds (\\S+) (.*)") { (steps: BasketSteps, count: Int, item: String) in
            try expectEqual(steps.basket[item, default: 0], count, "number of \(item)")
        }
        step("^the basket is empty$") { steps in
            try expect(steps.basket.values.allSatisfy { $0 == 0 }, "the basket holds \(steps.basket)")
        }
        step("^the customer is a (\\w+)$") { (steps: BasketSteps, membership: Membership) in
            steps.membership = membership
        }
        step("^each item costs (\\S+) euros$") { (steps: BasketSteps, price: Decimal) in
            steps.unitPrice = price
        }
        step("^the total is (\\S+) euros( with a discount)?$") { (steps: BasketSteps, total: Decimal, discount: String?) in
            let count = steps.basket.values.reduce(0, +)
            var expected = steps.unitPrice * Decimal(count)
            if discount != nil { expected *= Decimal(string: "0.9")! }
            try expectEqual(expected, total)
        }
        step("^the basket has been kept (yes|no|maybe)$") { (steps: BasketSteps, kept: Bool) in
            try expect(kept == !steps.basket.isEmpty)
        }
        step("^the basket is stocked with:$") { (steps: BasketSteps, table: DataTable) in
            for row in table.hashes {
                steps.basket[row["item"] ?? "", default: 0] += Int(row["count"] ?? "") ?? 0
            }
        }
        step("^the customer writes:$") { (steps: BasketSteps, text: DocString) in steps.note = text.content }
        step("^the note says \"(.*)\"$") { (steps: BasketSteps, expected: String) in
            try expectEqual(steps.note, expected)
        }
        step("^we wait for the warehouse$") { _ in
            try await Task.sleep(nanoseconds: 1_000_000)
        }
    }
}

/// A failure a fixture step throws.
enum BasketError: Error, CustomStringConvertible {
    case notEnough(item: String, held: Int)

    var description: String {
        switch self {
        case .notEnough(let item, let held): "cannot remove more \(item) than the \(held) in the basket"
        }
    }
}
