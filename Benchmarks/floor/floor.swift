// The physical floor for a run's work (issue 16): read the same story
// files, call one of 1,000 no-op closures per step with the step's numbers
// converted to Int, and write the same output as the run being compared
// (`floor OUTPUT-FILE FOLDER`). No matching, no reports, no supervision:
// nothing a runner could leave out.
import Foundation

@inline(never) func makeClosures() -> [([Int]) -> Void] {
    (0..<1000).map { index in { numbers in if numbers.count == -index { print(numbers) } } }
}

let closures = makeClosures()
let arguments = CommandLine.arguments
let output = FileManager.default.contents(atPath: arguments[1]) ?? Data()
var calls = 0
for name in ((try? FileManager.default.contentsOfDirectory(atPath: arguments[2])) ?? []).sorted() where name.hasSuffix(".feature") {
    guard let data = FileManager.default.contents(atPath: arguments[2] + "/" + name) else { continue }
    let text = String(decoding: data, as: UTF8.self)
    for line in text.split(separator: "\n") {
        let words = line.split(separator: " ")
        guard let keyword = words.first, ["Given", "When", "Then", "And"].contains(keyword) else { continue }
        var numbers: [Int] = []
        for word in words { if let number = Int(word) { numbers.append(number) } }
        closures[calls % closures.count](numbers)
        calls += 1
    }
}
FileHandle.standardOutput.write(output)
if calls == 0 { exit(1) }
