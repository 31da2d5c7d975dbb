import Foundation
import StepLibrarySupport
import StoryKit

extension BrowserSteps {
    /// The role a plural word in `I see 3 rows` counts.
    static let countWords = ["list items": "listitem", "items": "listitem", "rows": "row", "buttons": "button", "links": "link",
        "headings": "heading", "checkboxes": "checkbox", "text fields": "textbox", "images": "img", "cells": "cell"]

    static func definePageChecks(_ step: StepMap<BrowserSteps>) {
        step(#"^the (?:page )?title is "(.*)"$"#) { (steps: BrowserSteps, title: String) in
            try await steps.expectPage("title", "title", { $0 == title }, wanted: "\"\(title)\"")
        }
        step(#"^I am (?:on|at) "?([^"\s]+)"?$"#) { (steps: BrowserSteps, path: String) in
            let wanted = Placeholders.expand(path, in: steps.store)
            let key = wanted.contains("://") ? "url" : "path"
            try await steps.expectPage(key == "url" ? "URL" : "path", key, {
                $0 == wanted || (key == "path" && !wanted.contains("?") && $0.split(separator: "?").first.map(String.init) == wanted)
            }, wanted: wanted)
        }
        step(#"^the URL contains "(.*)"$"#) { (steps: BrowserSteps, part: String) in
            try await steps.expectPage("URL", "url", { $0.contains(part) }, wanted: "one containing \"\(part)\"")
        }
        step(#"^I (?:should )?see (\d+|no|one) (list items|items|rows|buttons|links|headings|checkboxes|text fields|images|cells)(?: within "(.+)")?$"#) {
            (steps: BrowserSteps, number: String, word: String, region: String?) in
            let count = number == "no" ? 0 : number == "one" ? 1 : Int(number) ?? 0
            try await steps.expectCount(count, Locator(.role, "", role: countWords[word]).within(Self.region(region)))
        }
        step(#"^I (?:should )?see (\d+|no|one) elements? matching "(.+)"$"#) { (steps: BrowserSteps, number: String, selector: String) in
            let count = number == "no" ? 0 : number == "one" ? 1 : Int(number) ?? 0
            try await steps.expectCount(count, Locator.parse(selector.hasPrefix("//") || selector.hasPrefix("xpath=") ? selector : (selector.hasPrefix("css=") ? selector : "css=" + selector), as: .css))
        }
        step(#"^(?:the page alerted|I see an alert saying) "(.*)"$"#) { (steps: BrowserSteps, message: String) in
            try await steps.perform { page in
                try await steps.eventually(page, { page.dialogMessages.contains(message) }) {
                    let seen = page.dialogMessages
                    return "the page showed no dialog \"\(message)\" within \(CDPConnection.seconds(steps.timeLimit)); "
                        + (seen.isEmpty ? "it showed none" : "it showed: " + seen.map { "\"\($0)\"" }.joined(separator: ", "))
                }
            }
        }
    }

    /// Waits until a locator finds exactly `count` visible elements.
    func expectCount(_ count: Int, _ locator: Locator) async throws {
        try await perform { page in
            var last: CDPObject?
            try await eventually(page, {
                last = try page.answer("count", locator)
                return last?.string("state") == "ok" && last?.int("count") == count
            }, {
                guard let answer = last else { return "the page did not load" }
                if answer.string("state") != "ok" { return Self.explain(answer, locator, timeLimit: timeLimit) }
                let found = answer.strings("elements") ?? []
                return "expected \(count) × \(locator.description.dropFirst(2)), found \(answer.int("count") ?? 0)"
                    + (found.isEmpty ? "" : ":\n" + found.map { "  " + $0 }.joined(separator: "\n"))
            })
        }
    }
}
