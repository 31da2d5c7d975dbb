// The physical floor for a run's work (issue 16): read the same story
// files, call one of 1,000 no-op closures per step with the step's numbers
// converted to Int, and write the same output as the run being compared
// (`floor OUTPUT-FILE FOLDER`). Bytes, no Strings: no matching, no
// reports, no supervision, nothing a runner could leave out.
import Foundation

@inline(never) func makeClosures() -> [([Int]) -> Void] {
    (0..<1000).map { index in { numbers in if numbers.count == -index { print(numbers) } } }
}

let closures = makeClosures()
let arguments = CommandLine.arguments
let output = FileManager.default.contents(atPath: arguments[1]) ?? Data()
var calls = 0
var numbers: [Int] = []
numbers.reserveCapacity(8)
let keywords: [[UInt8]] = ["Given ", "When ", "Then ", "And ", "But "].map { Array($0.utf8) }
for name in ((try? FileManager.default.contentsOfDirectory(atPath: arguments[2])) ?? []).sorted() where name.hasSuffix(".feature") {
    guard let data = FileManager.default.contents(atPath: arguments[2] + "/" + name) else { continue }
    data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
        let bytes = raw.bindMemory(to: UInt8.self)
        var index = 0
        while index < bytes.count {
            // One line: its first word, then its numbers.
            while index < bytes.count && bytes[index] == 0x20 { index += 1 }
            let start = index
            while index < bytes.count && bytes[index] != 0x0A { index += 1 }
            let line = UnsafeBufferPointer(rebasing: bytes[start..<index])
            index += 1
            guard keywords.contains(where: { line.starts(with: $0) }) else { continue }
            numbers.removeAll(keepingCapacity: true)
            var value = 0, inNumber = false, wordStart = true
            for byte in line {
                if byte >= 0x30 && byte <= 0x39 && (inNumber || wordStart) {
                    value = value * 10 + Int(byte - 0x30)
                    inNumber = true
                } else {
                    if inNumber && byte == 0x20 { numbers.append(value) }
                    inNumber = false
                    value = 0
                }
                wordStart = byte == 0x20
            }
            if inNumber { numbers.append(value) }
            closures[calls % closures.count](numbers)
            calls += 1
        }
    }
}
FileHandle.standardOutput.write(output)
if calls == 0 { exit(1) }
