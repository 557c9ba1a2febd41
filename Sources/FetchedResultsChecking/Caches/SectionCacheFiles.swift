public import Foundation
import OpenCoreData

/// The fetched results controller's section cache files as tests outside the library's package
/// see them (the examples' tests): where a cache's file is, and how to wait for the writes still
/// queued, which the library keeps to its own package.
///
/// ```swift
/// let list = try RecipeList(context: context, cacheName: "Recipes")
/// SectionCacheFiles.waitForWrites()
/// FileManager.default.fileExists(atPath: SectionCacheFiles.fileURL(forCacheName: "Recipes").path)  // true
/// ```
public enum SectionCacheFiles {
    /// The file the cache named `name` is written to, in the current cache directory.
    ///
    /// - Parameter name: The controller's `cacheName`.
    /// - Returns: The file's URL, whether or not it exists yet.
    public static func fileURL(forCacheName name: String) -> URL {
        SectionCacheLocation.current.fileURL(forCacheName: name)
    }

    /// Waits until every cache write queued so far is on disk: controllers write their caches
    /// off the caller's queue.
    public static func waitForWrites() {
        SectionCaches.writer().waitUntilIdle()
    }
}
