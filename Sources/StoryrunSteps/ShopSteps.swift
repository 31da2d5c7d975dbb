import Foundation
import StoryKit

/// The steps of `Fixtures/cucumber-json/features`, the Swift twin of
/// `Fixtures/cucumber-json/features/step_definitions/shop_steps.rb`: the same
/// patterns and behaviour, so the Cucumber JSON of both can be compared.
final class ShopSteps: StepDefinitions {
    var prices: [String: Int] = [:]
    var total = 0

    required init() {}

    static func define(_ step: StepMap<ShopSteps>) {
        step("^the price list$") { (steps: ShopSteps, table: DataTable) in
            for row in table.hashes { steps.prices[row["item"] ?? ""] = Int(row["price"] ?? "") ?? 0 }
        }
        step("^I buy (\\d+) \"([^\"]*)\"$") { (steps: ShopSteps, count: Int, item: String) in
            steps.total += count * (steps.prices[item] ?? 1)
        }
        step("^I pay (\\d+) euros$") { (steps: ShopSteps, total: Int) in
            if steps.total != total { try fail("expected \(total), got \(steps.total)") }
        }
        step("^the receipt reads$") { (_: ShopSteps, _: DocString) in }
        step("^I leave the shop$") { _ in }
        step("^the receipt is attached$") { (steps: ShopSteps) in
            attach("{\"total\": \(steps.total)}", mediaType: "application/json")
            attach(Data(base64Encoded: pixelPNG) ?? Data(), mediaType: "image/png")
        }
        step("^I log \"([^\"]*)\"$") { (_: ShopSteps, text: String) in log(text) }
        step.before(tags: "@failing-before") { _ in try fail("the before hook was told to fail") }
        step.after(tags: "@failing-after") { _ in try fail("the after hook was told to fail") }
        step.after(tags: "@attach-after") { _ in attach("receipt printed", mediaType: "text/plain") }
    }
}

/// A 1x1 red PNG, the bytes the Ruby twin embeds.
private let pixelPNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC"
