import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reading and deleting cache files so that what others put in the cache directory cannot hurt:
/// below the root no symbolic link is followed, only regular files are read and never more than a
/// bound (a FIFO would block the reader, `/dev/zero` never ends), and only cache files are deleted.
enum SectionCacheFiles {
    /// The name of a cache's file in its directory.
    static let fileName = "sectionInfo"

    /// Whether a name in a cache's directory is one of the library's files: the cache itself, or
    /// the temporary file of a write (which a stopped process may leave behind).
    static func isCacheFile(named name: String) -> Bool {
        name == fileName || (name.hasPrefix(".\(fileName)-") && name.hasSuffix(".tmp"))
    }

    /// The bytes of the cache file in `directory`, or nil when there is none.
    static func contents(inDirectory directory: URL, limit: Int64) -> Result<Data, SectionCacheError>? {
        // Absence is told by the failed open itself: checking first would race a write that
        // renames the file into place in between.
        let directoryDescriptor = open(directory.path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard directoryDescriptor >= 0 else {
            let code = errno
            switch code {
            case ENOENT: return nil
            // A link in the directory's place fails either way, depending on the system.
            case ENOTDIR, ELOOP:
                return isSymbolicLink(directory) ? .failure(.notARegularFile(kind: "in a directory that is a symbolic link")) : nil
            default: return .failure(.unreadable("\(directory.path): \(String(cString: strerror(code)))"))
            }
        }
        defer { close(directoryDescriptor) }
        // Not blocking: opening a FIFO for reading would wait for a writer.
        let descriptor = openat(directoryDescriptor, fileName, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            switch code {
            case ENOENT: return nil
            case ELOOP: return .failure(.notARegularFile(kind: "a symbolic link"))
            default: return .failure(.unreadable("\(directory.path)/\(fileName): \(String(cString: strerror(code)))"))
            }
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            return .failure(.unreadable("\(directory.path)/\(fileName): \(String(cString: strerror(errno)))"))
        }
        if let kind = kind(of: status.st_mode) { return .failure(.notARegularFile(kind: kind)) }
        let size = Int64(status.st_size)
        guard size <= limit else { return .failure(.tooLarge(size: size, limit: limit)) }
        return readAll(descriptor, size: Int(size)).mapError { .unreadable("\(directory.path)/\(fileName): \($0)") }
    }

    private static func isSymbolicLink(_ url: URL) -> Bool {
        var status = stat()
        return lstat(url.path, &status) == 0 && status.st_mode & S_IFMT == S_IFLNK
    }

    /// What a file that is not a regular one is, in words; nil for a regular file.
    private static func kind(of mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: nil
        case S_IFIFO: "a FIFO"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFDIR: "a directory"
        case S_IFSOCK: "a socket"
        case S_IFLNK: "a symbolic link"
        default: "not a regular file"
        }
    }

    /// At most `size` bytes: a file that grew since its size was read is cut there (and then does
    /// not decode), one that shrank is what it holds.
    private static func readAll(_ descriptor: Int32, size: Int) -> Result<Data, Failure> {
        var data = Data(count: size)
        var filled = 0
        while filled < size {
            let count = data.withUnsafeMutableBytes { buffer in
                read(descriptor, buffer.baseAddress!.advanced(by: filled), size - filled)
            }
            if count < 0 {
                if errno == EINTR { continue }
                return .failure(Failure(description: String(cString: strerror(errno))))
            }
            if count == 0 { break }
            filled += count
        }
        return .success(filled == size ? data : data.prefix(filled))
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Deletes the cache files in `directory`, then the directory if nothing else is left in it.
    /// A directory that is a symbolic link, or not there, is left alone.
    static func deleteCacheFiles(inDirectory directory: URL) throws {
        let directoryDescriptor = open(directory.path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard directoryDescriptor >= 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR || code == ELOOP { return }
            throw posixError(code, directory.path)
        }
        defer { close(directoryDescriptor) }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        for name in names where isCacheFile(named: name) {
            // Names are unlinked relative to the directory opened above, never through a link.
            var status = stat()
            guard fstatat(directoryDescriptor, name, &status, AT_SYMLINK_NOFOLLOW) == 0, status.st_mode & S_IFMT == S_IFREG else { continue }
            if unlinkat(directoryDescriptor, name, 0) != 0, errno != ENOENT {
                throw posixError(errno, directory.appendingPathComponent(name).path)
            }
        }
        removeIfEmpty(directory)
    }

    /// Deletes the cache files of every cache directory in `root`, then `root` if nothing else is
    /// left in it.
    static func deleteEveryCache(inRoot root: URL) throws {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: root.path) else { return }
        for name in names {
            try deleteCacheFiles(inDirectory: root.appendingPathComponent(name, isDirectory: true))
        }
        removeIfEmpty(root)
    }

    /// Removes an empty directory; one that is not empty, or gone, stays as it is.
    private static func removeIfEmpty(_ directory: URL) {
        _ = rmdir(directory.path)
    }

    private static func posixError(_ code: Int32, _ path: String) -> CocoaError {
        CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path, NSLocalizedDescriptionKey: String(cString: strerror(code))])
    }
}
