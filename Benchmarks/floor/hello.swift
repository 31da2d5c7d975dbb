// A bare Foundation program that prints a line: the start-up storyrun's is measured against.
import Foundation
print("hello from \(ProcessInfo.processInfo.processName)")
