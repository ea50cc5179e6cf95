import Foundation
import GRDB
import GRDBSQLite

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads the bytes of a store's main file through SQLite's own file handle, never through a
/// descriptor of ours.
///
/// Closing any descriptor of a file drops every POSIX advisory lock the process holds on it
/// (SQLite's "How To Corrupt An SQLite Database File", §2.2): a plain open and close of a store
/// that a connection of this process has open would silently release that connection's locks
/// and let another process write under it. SQLite's VFS knows its connections' locks: a handle
/// it closes while a lock is held on the file stays open until that lock is released.
///
/// The connection opened here reads no page, so it takes no lock and creates no `-wal` or
/// `-shm`. The `-wal` and `-journal` carry no lock and may be read as any file; the `-shm`
/// carries the WAL locks, and nothing of ours opens it.
enum StoreFileReader {
    /// Bytes read or copied at a time: memory stays flat whatever the store's size.
    private static let chunkSize = 1 << 20

    /// The first `count` bytes of the file at `path`, fewer when it is shorter.
    /// - Throws: ``StoreError`` of its class (`permissionDenied` when it cannot be opened).
    static func prefix(of path: String, count: Int) throws -> [UInt8] {
        try withFile(at: path) { file in
            let length = min(count, try file.size())
            var bytes = [UInt8](repeating: 0, count: length)
            try bytes.withUnsafeMutableBytes { try file.read(into: $0, at: 0) }
            return bytes
        }
    }

    /// The pages `numbers` (1-based) of `pageSize` bytes of the database file at `path`, read
    /// one by one: a page the file does not hold in full is left out.
    /// - Throws: ``StoreError`` of its class.
    static func pages(_ numbers: [Int], of path: String, pageSize: Int) throws -> [Int: [UInt8]] {
        try withFile(at: path) { file in
            let size = try file.size()
            var pages = [Int: [UInt8]]()
            for number in numbers where number >= 1 && number * pageSize <= size {
                var bytes = [UInt8](repeating: 0, count: pageSize)
                try bytes.withUnsafeMutableBytes { try file.read(into: $0, at: (number - 1) * pageSize) }
                pages[number] = bytes
            }
            return pages
        }
    }

    /// Copies the file at `path` byte for byte to `destination`, which it creates (mode 0600)
    /// or, when it is there and empty (a claimed staging file, ``StagingClaim``), writes in
    /// place: the file is never replaced, so a claim on it holds.
    /// - Throws: ``StoreError`` of its class.
    static func copy(_ path: String, to destination: String) throws {
        try withFile(at: path) { file in
            let size = try file.size()
            let descriptor = open(destination, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else { throw StoreError.permissionDenied(path: destination, writing: true) }
            let output = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
            defer { try? output.close() }
            var buffer = [UInt8](repeating: 0, count: min(chunkSize, max(size, 1)))
            var offset = 0
            while offset < size {
                let length = min(buffer.count, size - offset)
                try buffer.withUnsafeMutableBytes { try file.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[..<length]), at: offset) }
                try StoreError.mapping(path: destination) { try output.write(contentsOf: buffer[..<length]) }
                offset += length
            }
        }
    }

    // MARK: - SQLite's file handle

    /// Runs `body` with the main-file handle of a read-only connection to `path` that reads
    /// nothing itself; the connection is closed afterwards, through SQLite.
    private static func withFile<T>(at path: String, _ body: (OpenFile) throws -> T) throws -> T {
        if let kind = StoreFiles.nonRegularKind(atPath: path) {
            throw StoreError(.notRegularFile, path: path, message: "\(path) is a \(kind), not a regular file")
        }
        // An absolute path: a relative one starting with `file:` would be taken as a URI.
        let absolute = URL(fileURLWithPath: path).path
        var connection: OpaquePointer?
        defer { sqlite3_close_v2(connection) }
        let opened = sqlite3_open_v2(absolute, &connection, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nil)
        guard opened == SQLITE_OK, let connection else {
            throw failure(opened, connection, path)
        }
        var handle: UnsafeMutablePointer<sqlite3_file>?
        let found = sqlite3_file_control(connection, "main", SQLITE_FCNTL_FILE_POINTER, &handle)
        guard found == SQLITE_OK, let handle, handle.pointee.pMethods != nil else {
            throw failure(found == SQLITE_OK ? SQLITE_CANTOPEN : found, connection, path)
        }
        return try body(OpenFile(handle: handle, path: path))
    }

    /// The ``StoreError`` of SQLite result `code`, with the connection's message.
    private static func failure(_ code: Int32, _ connection: OpaquePointer?, _ path: String) -> StoreError {
        let message = connection.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
        return StoreError(sqlite: DatabaseError(resultCode: ResultCode(rawValue: code), message: message), path: path)
    }

    /// A file SQLite opened, read through its I/O methods.
    private struct OpenFile {
        let handle: UnsafeMutablePointer<sqlite3_file>
        let path: String

        /// The file's size in bytes.
        func size() throws -> Int {
            var size: sqlite3_int64 = 0
            try check(handle.pointee.pMethods.pointee.xFileSize(handle, &size))
            return Int(size)
        }

        /// Fills `buffer` from `offset`, which the file must hold in full.
        func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws {
            guard let base = buffer.baseAddress, !buffer.isEmpty else { return }
            try check(handle.pointee.pMethods.pointee.xRead(handle, base, Int32(buffer.count), sqlite3_int64(offset)))
        }

        private func check(_ code: Int32) throws {
            guard code != SQLITE_OK else { return }
            throw StoreError(sqlite: DatabaseError(resultCode: ResultCode(rawValue: code), message: "cannot read the file"), path: path)
        }
    }
}
