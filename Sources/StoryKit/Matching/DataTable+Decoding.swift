/// Typed tables: each row after the header decoded into a `Decodable` value,
/// its cells converted as step arguments are.
extension DataTable {
    /// Decodes each row after the header into a value whose coding keys are
    /// the header cells.
    ///
    /// ```swift
    /// struct Item: Decodable { var name: String; var price: Decimal; var organic: Bool }
    /// step.expression("the shelf holds:") { (steps: ShopSteps, table: DataTable) in
    ///     steps.shelf = try table.decode([Item].self)
    /// }
    /// ```
    /// A header cell names a property as written (`price`) or in words
    /// (`Unit price` for `unitPrice`, in any case). Cells convert like step
    /// arguments: integers, `Double`, `Decimal`, `Bool` (`true`, `yes`…), and
    /// enums that conform to ``StepArgument``; an empty cell is nil for an
    /// optional property.
    /// - Throws: ``DataTableError`` naming the table's file, the row's line
    ///   and the column, when a column is missing or a cell does not convert.
    public func decode<Row: Decodable>(_ type: [Row].Type, file: String = #filePath, line: Int = #line) throws -> [Row] {
        let swiftLocation = SourceLocation(file: file, line: line)
        return try rows.indices.dropFirst().map { index in
            try Row(from: TableRowDecoder(table: self, rowIndex: index, swiftLocation: swiftLocation))
        }
    }

    /// The table with rows and columns swapped: the first column becomes the
    /// header, for tables written one field a line.
    public var transposed: DataTable {
        let width = rows.map(\.count).max() ?? 0
        let swapped = (0..<width).map { column in rows.map { column < $0.count ? $0[column] : "" } }
        return DataTable(rows: swapped, location: location)
    }

    /// The place of a row: its line in the story file.
    func location(ofRow index: Int) -> SourceLocation {
        var place = location
        place.line += index
        return place
    }
}

/// A typed table's column is missing, or one of its cells does not convert.
public struct DataTableError: LocatedError, CustomStringConvertible {
    /// What is wrong, with the table's file:line and the column.
    public var description: String
    /// Where in Swift the table was decoded.
    public var location: SourceLocation?
}

/// Decodes one row of a table, its header cells as keys.
private struct TableRowDecoder: Decoder {
    let table: DataTable
    let rowIndex: Int
    let swiftLocation: SourceLocation
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(RowContainer<Key>(decoder: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw error("a row decodes into a struct or class whose properties are the columns, not into a list")
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        throw error("a row decodes into a struct or class whose properties are the columns, not into a single value")
    }

    func error(_ problem: String) -> DataTableError {
        DataTableError(description: "\(problem) (row \(rowIndex) of the table at \(table.location(ofRow: rowIndex).displayFileAndLine))", location: swiftLocation)
    }

    /// The column of a key: the header cell written as the key, or the
    /// same words in any case and spacing (`Unit price` for `unitPrice`).
    func column(of key: String) -> Int? {
        if let exact = table.header.firstIndex(of: key) { return exact }
        let folded = Self.fold(key)
        return table.header.firstIndex { Self.fold($0) == folded }
    }

    static func fold(_ text: String) -> String {
        String(text.lowercased().filter { $0.isLetter || $0.isNumber })
    }

    func cell(_ key: String) throws -> (text: String, column: Int) {
        guard let column = column(of: key) else {
            throw error("the table has no column \"\(key)\"; its header is \(table.header.map { "\"\($0)\"" }.joined(separator: ", "))")
        }
        let row = table.rows[rowIndex]
        return (column < row.count ? row[column] : "", column)
    }

    func convert<T: Decodable>(_ type: T.Type, key: String) throws -> T {
        let (text, column) = try cell(key)
        if let argument = T.self as? any StepArgument.Type {
            if let value = argument.convert(.text(text)) as? T { return value }
            let values = argument.stepArgumentValues.map { "; valid values: " + $0.map { "\"\($0)\"" }.joined(separator: ", ") } ?? ""
            throw DataTableError(
                description: "\"\(text)\" in column \"\(table.header[column])\" (column \(column + 1)) is not \(argument.stepArgumentName.withIndefiniteArticle)\(values)"
                    + " (row \(rowIndex) of the table at \(table.location(ofRow: rowIndex).displayFileAndLine))",
                location: swiftLocation)
        }
        // Anything else that decodes from text (URL, a String enum).
        return try T(from: CellDecoder(text: text, row: self, key: key))
    }
}

private struct RowContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: TableRowDecoder
    var codingPath: [any CodingKey] { [] }
    var allKeys: [Key] { decoder.table.header.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { decoder.column(of: key.stringValue) != nil }

    func decodeNil(forKey key: Key) throws -> Bool {
        guard decoder.column(of: key.stringValue) != nil else { return true }
        return try decoder.cell(key.stringValue).text.isEmpty
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try decoder.convert(type, key: key.stringValue)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        throw decoder.error("column \"\(key.stringValue)\" cannot hold a nested value")
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        throw decoder.error("column \"\(key.stringValue)\" cannot hold a list")
    }

    func superDecoder() throws -> any Decoder { decoder }
    func superDecoder(forKey key: Key) throws -> any Decoder { decoder }
}

/// Decodes one cell's text, for `Decodable` types that are not step
/// arguments but decode from a string (URL, enums with `String` raw values).
private struct CellDecoder: Decoder, SingleValueDecodingContainer {
    let text: String
    let row: TableRowDecoder
    let key: String
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<K: CodingKey>(keyedBy type: K.Type) throws -> KeyedDecodingContainer<K> {
        throw row.error("column \"\(key)\" cannot hold a nested value")
    }
    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw row.error("column \"\(key)\" cannot hold a list") }
    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }
    func decodeNil() -> Bool { text.isEmpty }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try row.convert(type, key: key) }
}
