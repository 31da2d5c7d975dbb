import Foundation
import Testing
@testable import StoryKit

enum Colour: String, StepArgument, CaseIterable { case red, green }

/// A user's own type: a temperature written like `21C`.
struct Celsius: StepArgument, Equatable {
    var degrees: Int
    init?(stepArgument text: String) {
        guard text.hasSuffix("C"), let degrees = Int(text.dropLast()) else { return nil }
        self.degrees = degrees
    }
    init(_ degrees: Int) { self.degrees = degrees }
}

@Suite(.timeLimit(.minutes(10))) struct StepArgumentTests {
    @Test("Text converts to the built-in types")
    func builtIns() {
        #expect(String(stepArgument: "abc") == "abc")
        #expect(Substring(stepArgument: "abc") == "abc")
        #expect(Int(stepArgument: "-42") == -42)
        #expect(Int8(stepArgument: "127") == 127)
        #expect(Int8(stepArgument: "128") == nil)
        #expect(UInt64(stepArgument: "18446744073709551615") == .max)
        #expect(UInt(stepArgument: "-1") == nil)
        #expect(Int(stepArgument: "4.5") == nil)
        #expect(Double(stepArgument: "2.5") == 2.5)
        #expect(Float(stepArgument: "-0.25") == -0.25)
        #expect(Decimal(stepArgument: "12.50") == Decimal(string: "12.5"))
        #expect(Decimal(stepArgument: "12.5x") == nil)
        #expect(Double(stepArgument: "abc") == nil)
    }

    @Test("Booleans read true, false, yes and no in any case", arguments: [
        ("true", true), ("FALSE", false), ("Yes", true), ("no", false),
    ])
    func booleans(text: String, value: Bool) {
        #expect(Bool(stepArgument: text) == value)
    }

    @Test("Other words are not Booleans")
    func notBooleans() {
        #expect(Bool(stepArgument: "maybe") == nil)
    }

    @Test("Enums convert by raw value, in any case")
    func enums() {
        #expect(Colour(stepArgument: "red") == .red)
        #expect(Colour(stepArgument: "GREEN") == .green)
        #expect(Colour(stepArgument: "blue") == nil)
    }

    @Test("Optionals are nil for a group that took no part")
    func optionals() {
        #expect(Int?.convert(.text(nil)) == .some(nil))
        #expect(Int?.convert(.text("3")) == .some(3))
        #expect(Int?.convert(.text("x")) == nil)
        #expect(Int.convert(.text(nil)) == nil)
    }

    @Test("A user's own type converts through its initializer")
    func userType() {
        #expect(Celsius.convert(.text("21C")) == Celsius(21))
        #expect(Celsius.convert(.text("21F")) == nil)
    }

    @Test("Tables and doc strings take the step's attachment")
    func attachments() {
        let table = DataTable(rows: [["a", "b"], ["1", "2"]], location: .init(file: "f", line: 1))
        #expect(DataTable.takesAttachment)
        #expect(DataTable.convert(.attachment(.dataTable(table))) == table)
        #expect(DataTable.convert(.text("x")) == nil)
        #expect(table.hashes == [["a": "1", "b": "2"]])
        let doc = DocString(content: "hi", location: .init(file: "f", line: 1))
        #expect(DocString.convert(.attachment(.docString(doc))) == doc)
    }

    @Test("A conversion failure names the argument, the step, its place and the type")
    func conversionMessage() {
        let error = ArgumentConversionError(
            position: 2, text: "abc", typeName: "Int", takesAttachment: false,
            site: ArgumentSite(
                step: Step(keyword: "Then", kind: .outcome, text: "I should see abc and x in the log", location: .init(file: "login.stories", line: 7, column: 1)),
                definitionLocation: nil))
        #expect(error.description == #"argument 2 "abc" of "Then I should see abc and x in the log" (login.stories:7) is not an Int"#)
    }
}
