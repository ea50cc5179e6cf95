import Foundation

/// A fresh folder under the system's temporary directory, removed when `body` returns or throws.
///
/// ```swift
/// try withTemporaryDirectory { folder in
///     try writeFile("contents", "<model/>", in: folder)
/// }
/// ```
public func withTemporaryDirectory<T>(_ body: (URL) throws -> T) throws -> T {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("modelc-test-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    return try body(folder)
}

/// Writes `text` as UTF-8 to `relativePath` inside `folder`, creating the folders on the way.
@discardableResult
public func writeFile(_ relativePath: String, _ text: String, in folder: URL) throws -> URL {
    let file = folder.appendingPathComponent(relativePath)
    try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(text.utf8).write(to: file)
    return file
}

/// Copies a store with its `-wal` and `-shm` into `folder` (as `name`, else under its own name),
/// so that a test never opens a corpus store in place; returns the copy's path.
@discardableResult
public func copyStore(_ store: String, into folder: URL, as name: String? = nil) throws -> String {
    let target = folder.appendingPathComponent(name ?? URL(fileURLWithPath: store).lastPathComponent).path
    try FileManager.default.copyItem(atPath: store, toPath: target)
    for suffix in ["-wal", "-shm"] where FileManager.default.fileExists(atPath: store + suffix) {
        try FileManager.default.copyItem(atPath: store + suffix, toPath: target + suffix)
    }
    return target
}
