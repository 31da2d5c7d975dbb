import Foundation

/// What every attempt of a story shares in its Allure results: its names,
/// ids, labels and an outline row's parameters.
///
/// The ids are hashes of the file, the story's name (an outline's, for its
/// rows) and the row's cells: not of lines, so a story keeps its history
/// when lines above it move.
struct AllureIdentity {
    var name: String
    var fullName: String
    var testCaseId: String
    var historyId: String
    var parameters: [AllureParameter]
    var labels: [AllureLabel]
    var titlePath: [String]

    init(story: Story, place: StoryFileInfo.Place?, host: String, thread: String) {
        let file = story.location.displayPath
        let template = place?.scenario.name ?? story.name
        var parameters: [AllureParameter] = []
        if let row = place?.row {
            let header = place?.examples?.tableHeader?.cells ?? []
            parameters = row.cells.enumerated().map { index, cell in
                AllureParameter(name: index < header.count ? header[index] : "column \(index + 1)", value: cell)
            }
        }
        name = story.name
        fullName = "\(file): \(template)"
        testCaseId = AllureHash.hex(fullName)
        let row = parameters.map { "\($0.name)=\($0.value)" }.joined(separator: "\u{1F}")
        historyId = AllureHash.hex(fullName + "\u{1E}" + row)
        self.parameters = parameters
        let folder = (file as NSString).deletingLastPathComponent
        titlePath = folder.split(separator: "/").map(String.init) + [story.groupName]
        labels = Self.labels(story: story, template: template, folder: folder, rule: place?.rule?.name, host: host, thread: thread)
    }

    /// feature, story, suite (the feature), parentSuite (the folder),
    /// subSuite (the Rule), a tag for each tag, and where it ran.
    private static func labels(
        story: Story, template: String, folder: String, rule: String?, host: String, thread: String
    ) -> [AllureLabel] {
        var labels = [
            AllureLabel(name: "feature", value: story.groupName),
            AllureLabel(name: "story", value: template),
            AllureLabel(name: "suite", value: story.groupName),
            AllureLabel(name: "parentSuite", value: folder.isEmpty ? "." : folder),
        ]
        if let rule, !rule.isEmpty { labels.append(AllureLabel(name: "subSuite", value: rule)) }
        for tag in story.tags {
            labels.append(AllureLabel(name: "tag", value: tag.hasPrefix("@") ? String(tag.dropFirst()) : tag))
        }
        labels += [
            AllureLabel(name: "framework", value: "storyrun"),
            AllureLabel(name: "language", value: "swift"),
            AllureLabel(name: "host", value: host),
            AllureLabel(name: "thread", value: thread),
        ]
        return labels
    }
}

/// A 128-bit FNV-1a hash as 32 hex digits (the length of the MD5 other
/// Allure adapters use): stable across runs and machines.
enum AllureHash {
    static func hex(_ text: String) -> String {
        var low: UInt64 = 0xcbf2_9ce4_8422_2325
        var high: UInt64 = 0x6c62_272e_07bb_0142
        for byte in text.utf8 {
            low = (low ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            high = (high ^ UInt64(byte) ^ (low >> 32)) &* 0x0000_0100_0000_01b3
        }
        return hex16(low) + hex16(high)
    }

    private static func hex16(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
