import Foundation

extension MessagesReporter {
    /// Ids that are not numbers yet: a Messages stream numbers its ids in
    /// the order it is written (sources and pickles, then definitions and
    /// hooks, then the run), but it is written as the run goes, before the
    /// count of any part is known. Each id is written as a marker, in one of
    /// four series, and numbered when the stream is assembled.
    ///
    /// A marker is a JSON string `"\u0001#<nonce><series><n>"`; the nonce is
    /// random per report, so no text of a story can pass for a marker.
    struct IDMarker {
        /// The series an id is counted in.
        enum Series: UInt8 {
            /// The ids of one story file's syntax tree and pickles: `F<file>:<n>`.
            case file = 0x46
            /// Step definitions, in the order they are written.
            case definition = 0x44
            /// Hooks, in the order they are written.
            case hook = 0x48
            /// The run: test cases, their steps, attempts and suggestions.
            case run = 0x52
        }

        /// Eight random letters, so a marker cannot be typed by chance.
        let nonce: String

        init() {
            let letters = Array("abcdefghijklmnopqrstuvwxyz")
            var generator = SystemRandomNumberGenerator()
            nonce = String((0..<8).map { _ in letters[Int(generator.next(upperBound: UInt64(letters.count)))] })
        }

        /// The marker of the `number`th id (from 1) of a series.
        func text(_ series: Series, _ number: Int, file: Int = 0) -> String {
            // Made as bytes: a pickle names a marker per step.
            var bytes: [UInt8] = [0x01, UInt8(ascii: "#")]
            bytes.reserveCapacity(32)
            appendRest(series, number, file: file, into: &bytes)
            return String(decoding: bytes, as: UTF8.self)
        }

        /// A marker after its first two characters: the nonce, the series,
        /// the file's number (for a file's ids) and the id's number.
        func appendRest(_ series: Series, _ number: Int, file: Int, into bytes: inout [UInt8]) {
            bytes.append(contentsOf: nonce.utf8)
            bytes.append(series.rawValue)
            if series == .file {
                JSONValue.writeInteger(Int64(file), into: &bytes)
                bytes.append(UInt8(ascii: ":"))
            }
            JSONValue.writeInteger(Int64(number), into: &bytes)
        }
    }

    /// Where each series starts, once every part has been counted.
    struct IDBases {
        var files: [Int]
        var definition: Int
        var hook: Int
        var run: Int

        /// The number of the `number`th id (from 1) of a series.
        func resolve(_ series: IDMarker.Series, _ number: Int, file: Int) -> Int {
            switch series {
            case .file: (file < files.count ? files[file] : 0) + number - 1
            case .definition: definition + number - 1
            case .hook: hook + number - 1
            case .run: run + number - 1
            }
        }
    }

    /// Copies JSON text, putting each marker's number in its place.
    static func resolving(_ bytes: UnsafeRawBufferPointer, marker: IDMarker, bases: IDBases, into out: inout [UInt8]) {
        // `\u0001#` and the nonce, as the JSON writer escapes the marker.
        let prefix = Array("\\u0001#".utf8) + Array(marker.nonce.utf8)
        var start = 0
        var index = 0
        let count = bytes.count
        while index < count {
            // Only a backslash can start a marker: memchr finds the next one fast.
            guard let found = memchr(bytes.baseAddress! + index, 0x5C, count - index) else { break }
            index = bytes.baseAddress!.distance(to: UnsafeRawPointer(found))
            guard index + prefix.count < count,
                  memcmp(bytes.baseAddress! + index, prefix, prefix.count) == 0,
                  let series = IDMarker.Series(rawValue: bytes[index + prefix.count])
            else {
                index += 1
                continue
            }
            var cursor = index + prefix.count + 1
            func number() -> Int {
                var value = 0
                while cursor < count, bytes[cursor] >= 0x30, bytes[cursor] <= 0x39 {
                    value = value * 10 + Int(bytes[cursor] - 0x30)
                    cursor += 1
                }
                return value
            }
            var file = 0
            if series == .file {
                file = number()
                cursor += 1  // `:`
            }
            let value = bases.resolve(series, number(), file: file)
            out.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start..<index]))
            JSONValue.writeInteger(Int64(value), into: &out)
            start = cursor
            index = cursor
        }
        out.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start..<count]))
    }
}
