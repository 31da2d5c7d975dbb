import Foundation
import StepLibrarySupport
import StoryKit

extension BrowserSteps {
    /// Role words a step may use, as the ARIA roles (and kinds) they mean.
    static let roleWords = "button|link|checkbox|radio button|tab|menu item|option|heading|list item|row|cell|image|dialog|region|field|text field|text|element"

    /// The locator a role word and a quoted name make.
    static func locator(_ word: String?, _ name: String, first: Bool = false) -> Locator {
        switch word ?? "" {
        case "": return Locator.parse(name, as: .clickable, first: first)
        case "text": return Locator.parse(name, as: .text, first: first)
        case "element": return Locator.parse(name, as: .text, first: first)
        case "field": return Locator.parse(name, as: .field, first: first)
        case "text field": return Locator.parse(name, as: .field, role: "textbox", first: first)
        case "checkbox": return Locator.parse(name, as: .field, role: "checkbox", first: first)
        case "radio button": return Locator.parse(name, as: .field, role: "radio", first: first)
        case "region": return Locator.parse(name, as: .region, first: first)
        default:
            let roles = ["list item": "listitem", "menu item": "menuitem", "image": "img"]
            return Locator.parse(name, as: .role, role: roles[word!] ?? word!, first: first)
        }
    }

    /// The region a `within "…"` names.
    static func region(_ name: String?) -> Locator? {
        name.map { Locator.parse($0, as: .region) }
    }

    /// Registers the steps; see the README's "Web pages" section.
    public static func define(_ step: StepMap<BrowserSteps>) {
        step.after { steps in steps.closePage() }
        step(#"^the app is at "?([^"\s]+)"?$"#) { (steps: BrowserSteps, url: String) in
            steps.baseURL = Placeholders.expand(url, in: steps.store)
        }
        step(#"^the browser waits up to (\d+(?:\.\d+)?) seconds?$"#) { (steps: BrowserSteps, seconds: Double) in
            steps.timeLimit = seconds
        }
        step(#"^I (?:visit|go to|open) "?([^"\s]+)"?$"#) { (steps: BrowserSteps, path: String) in
            let url = try steps.url(for: path)
            try await steps.perform { try await $0.navigate(to: url, timeLimit: max(steps.timeLimit, 10)) }
        }
        defineActions(step)
        defineChecks(step)
        defineNetwork(step)
    }

    private static func defineActions(_ step: StepMap<BrowserSteps>) {
        step(#"^I (?:click|press|tap)(?: on)? (the first )?"(.+?)"(?: within "(.+)")?$"#) {
            (steps: BrowserSteps, first: String?, name: String, region: String?) in
            try await steps.perform { try await $0.click(locator(nil, name, first: first != nil).within(Self.region(region)), timeLimit: steps.timeLimit) }
        }
        step(#"^I (?:click|press|tap)(?: on)? the (first )?(\#(roleWords)) "(.+?)"(?: within "(.+)")?$"#) {
            (steps: BrowserSteps, first: String?, word: String, name: String, region: String?) in
            try await steps.perform { try await $0.click(locator(word, name, first: first != nil).within(Self.region(region)), timeLimit: steps.timeLimit) }
        }
        step(#"^I fill in "(.+?)" with "(.*)"$"#) { (steps: BrowserSteps, name: String, text: String) in
            let value = Placeholders.expand(text, in: steps.store)
            try await steps.perform { try await $0.fill(Locator.parse(name, as: .field), with: value, timeLimit: steps.timeLimit) }
        }
        step("^I fill in the form with:$") { (steps: BrowserSteps, table: DataTable) in
            for row in table.rows where row.count >= 2 {
                let value = Placeholders.expand(row[1], in: steps.store)
                try await steps.perform { try await $0.fill(Locator.parse(row[0], as: .field), with: value, timeLimit: steps.timeLimit) }
            }
        }
        step(#"^I (check|uncheck) "(.+?)"$"#) { (steps: BrowserSteps, action: String, name: String) in
            let locator = Locator.parse(name, as: .field, role: "checkbox")
            try await steps.perform { try await $0.setChecked(locator, action == "check", timeLimit: steps.timeLimit) }
        }
        step(#"^I choose "(.+?)"$"#) { (steps: BrowserSteps, name: String) in
            try await steps.perform { try await $0.setChecked(Locator.parse(name, as: .field, role: "radio"), true, timeLimit: steps.timeLimit) }
        }
        step(#"^I select "(.*?)" from "(.+?)"$"#) { (steps: BrowserSteps, option: String, name: String) in
            try await steps.perform { try await $0.select(option, in: Locator.parse(name, as: .field), timeLimit: steps.timeLimit) }
        }
        step(#"^I press the (.+?) key$"#) { (steps: BrowserSteps, key: String) in
            try await steps.perform { try $0.press(key) }
        }
        step(#"^I type "(.*)"$"#) { (steps: BrowserSteps, text: String) in
            try await steps.perform { try $0.type(Placeholders.expand(text, in: steps.store)) }
        }
        step(#"^I will (accept|dismiss) (?:the )?(?:next )?(?:dialogs?|confirmations?|confirms?)$"#) { (steps: BrowserSteps, answer: String) in
            try await steps.perform { page in page.dialogs.withLock { $0.accepts = answer == "accept" } }
        }
        step(#"^(?:I )?(?:print|show) (?:me )?the page(?:'s accessibility tree)?$"#) { steps in
            try await steps.perform { page in
                log(try page.accessibilityTree())
                attach(try page.screenshot(), mediaType: "image/png", name: "screenshot.png")
            }
        }
    }
}
