// `storyrun-parse-bench [--passes N] [--dump] FOLDER…`: times parsing and
// compiling every `.feature` and `.stories` file of the folders to stories,
// in process, the texts read into memory first.
//
// Each pass parses every file once and drops its stories, as a run does; the
// figures are the median and the fastest pass in CPU time of this thread.
// `--dump` prints every story as a JSON line instead, for comparing two
// builds' output.
#if canImport(Glibc)
import Glibc
#endif
import Foundation
@_spi(Benchmarks) import StoryKit

var passes = 15
var dump = false
var folders: [String] = []
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--passes": passes = Int(arguments.popFirst() ?? "") ?? passes
    case "--dump": dump = true
    default: folders.append(argument)
    }
}

/// The CPU time this thread has used, in seconds.
func threadCPUTime() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

var files: [(path: String, text: String)] = []
for folder in folders {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    for name in names.sorted() where name.hasSuffix(".feature") || name.hasSuffix(".stories") {
        let path = folder + "/" + name
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { continue }
        files.append((path, text))
    }
}
let byteCount = files.reduce(0) { $0 + $1.text.utf8.count }

if dump {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    for file in files {
        let (stories, diagnostics) = ParseBenchmark.parse(file.text, path: file.path)
        for story in stories { print(String(decoding: try! encoder.encode(story), as: UTF8.self)) }
        for diagnostic in diagnostics { print(String(decoding: try! encoder.encode(diagnostic), as: UTF8.self)) }
    }
    exit(0)
}

var storyCount = 0, stepCount = 0, errorCount = 0
var times: [Double] = []
for pass in 0...passes {
    storyCount = 0; stepCount = 0; errorCount = 0
    let start = threadCPUTime()
    for file in files {
        let (stories, diagnostics) = ParseBenchmark.parse(file.text, path: file.path)
        storyCount += stories.count
        for story in stories { stepCount += story.steps.count }
        errorCount += diagnostics.count
    }
    // The first pass warms up caches and allocator, and is not counted.
    if pass > 0 { times.append(threadCPUTime() - start) }
}
times.sort()
let median = times[times.count / 2]
let fastest = times[0]
print(String(
    format: "%d files, %.2f MB, %d stories, %d steps, %d diagnostics: median %.2f ms (fastest %.2f ms), %.2f ms per 10,000 stories, %.1f MB/s",
    files.count, Double(byteCount) / 1e6, storyCount, stepCount, errorCount, median * 1000, fastest * 1000,
    median * 1000 * 10_000 / Double(max(storyCount, 1)), Double(byteCount) / 1e6 / median))
