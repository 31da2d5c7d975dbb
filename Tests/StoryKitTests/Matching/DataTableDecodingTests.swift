import Foundation
import Testing
@testable import StoryKit

@Suite(.timeLimit(.minutes(10))) struct DataTableDecodingTests {
    enum Aisle: String, StepArgument, CaseIterable, Decodable { case fruit, bakery }

    struct Item: Decodable, Equatable {
        var name: String
        var price: Decimal
        var count: Int
        var organic: Bool
        var aisle: Aisle
        var unitWeight: Double?
    }

    static let table = DataTable(rows: [
        ["name", "price", "count", "organic", "aisle", "Unit weight"],
        ["apple", "0.50", "3", "yes", "Fruit", "0.2"],
        ["bread", "2.10", "1", "false", "bakery", ""],
    ], location: SourceLocation(file: "shop.stories", line: 4))

    @Test("Rows decode through Decodable: header cells to keys, cells converted like step arguments")
    func decodesRows() throws {
        let items = try Self.table.decode([Item].self)
        #expect(items == [
            Item(name: "apple", price: Decimal(string: "0.50")!, count: 3, organic: true, aisle: .fruit, unitWeight: 0.2),
            Item(name: "bread", price: Decimal(string: "2.10")!, count: 1, organic: false, aisle: .bakery, unitWeight: nil),
        ])
    }

    @Test("A cell that does not convert names the row's line, the column and the valid values")
    func badCell() throws {
        var table = Self.table
        table.rows[2][4] = "dairy"
        let error = try #require(throws: DataTableError.self) { try table.decode([Item].self) }
        #expect(error.description == #""dairy" in column "aisle" (column 5) is not an Aisle; valid values: "fruit", "bakery" (row 2 of the table at shop.stories:6)"#)
        #expect(error.location?.file.hasSuffix("DataTableDecodingTests.swift") == true)
        table = Self.table
        table.rows[1][2] = "three"
        let count = try #require(throws: DataTableError.self) { try table.decode([Item].self) }
        #expect(count.description.hasPrefix(#""three" in column "count" (column 3) is not an Int (row 1 of the table at shop.stories:5)"#))
    }

    @Test("A missing column is named with the header the table has")
    func missingColumn() throws {
        struct Other: Decodable { var name: String; var colour: String }
        let error = try #require(throws: DataTableError.self) { try Self.table.decode([Other].self) }
        #expect(error.description.hasPrefix(#"the table has no column "colour"; its header is "name", "price""#))
    }

    @Test("transposed swaps rows and columns")
    func transposed() {
        let table = DataTable(rows: [["name", "apple"], ["price", "0.50"]], location: SourceLocation(file: "f", line: 1))
        #expect(table.transposed.rows == [["name", "price"], ["apple", "0.50"]])
        #expect(table.transposed.transposed == table)
    }

    @Test("diff(against:) passes on equal rows and fails with a readable table diff")
    func diff() throws {
        let expected = DataTable(rows: [["item", "count"], ["apple", "3"], ["pear", "1"]], location: SourceLocation(file: "shop.stories", line: 9))
        try expected.diff(against: [["item", "count"], ["apple", "3"], ["pear", "1"]])
        let failure = try #require(throws: ExpectationFailure.self) {
            try expected.diff(against: [["item", "count"], ["apple", "4"], ["pear", "1"], ["banana", "12"]])
        }
        #expect(failure.message == """
            the table at shop.stories:9 differs (- in the story only, + from the code only):
                  | item   | count |
                - | apple  | 3     |
                + | apple  | 4     |
                  | pear   | 1     |
                + | banana | 12    |
            """)
        #expect(failure.location?.file.hasSuffix("DataTableDecodingTests.swift") == true)
    }
}
