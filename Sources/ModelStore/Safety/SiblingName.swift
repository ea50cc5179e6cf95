import Foundation

/// Names for files modelc puts beside a store (a backup, a quarantined store):
/// `<name>.<tag>-<UTC time>.<extension>`, with `-2`, `-3`, … when that name is taken, so that
/// nothing is ever overwritten.
package enum SiblingName {
    package static func free(for path: String, tag: String, at date: Date = Date()) -> String {
        let url = URL(fileURLWithPath: path)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        let stem = url.deletingPathExtension().lastPathComponent
        let suffix = url.pathExtension.isEmpty ? "" : "." + url.pathExtension
        let base = url.deletingLastPathComponent().appendingPathComponent("\(stem).\(tag)-\(formatter.string(from: date))").path
        var candidate = base + suffix
        var counter = 2
        while FileManager.default.fileExists(atPath: candidate) {
            candidate = "\(base)-\(counter)\(suffix)"
            counter += 1
        }
        return candidate
    }
}
