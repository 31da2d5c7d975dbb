import Foundation
import StoryKit

// storyrun-test-generator OUTPUT.swift STORY-FILE...: writes one Swift Testing
// test per story of the files (the StoryTests plugin runs it at each build).
let arguments = CommandLine.arguments.dropFirst()
guard let output = arguments.first else {
    FileHandle.standardError.write(Data("usage: storyrun-test-generator OUTPUT.swift STORY-FILE...\n".utf8))
    exit(2)
}
let files = Array(arguments.dropFirst())
let (stories, diagnostics) = StoryRun.stories(in: files)
let source = StoryTestSource(files: files, stories: stories, diagnostics: diagnostics).text
do {
    try Data(source.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
} catch {
    FileHandle.standardError.write(Data("error: cannot write \(output): \(error.localizedDescription)\n".utf8))
    exit(1)
}
