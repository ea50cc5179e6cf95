import Foundation

#if !canImport(UIKit) && !canImport(AppKit)
    /// The two-index paths of sectioned lists that UIKit and AppKit add to Foundation's
    /// `IndexPath` (`IndexPath(item:section:)`, `.row`): Foundation on Linux has none, and
    /// a fetched results controller's index paths are such paths.
    extension IndexPath {
        /// The path of `item` in `section`.
        public init(item: Int, section: Int) {
            self.init(indexes: [section, item])
        }

        /// The path of `row` in `section`, as a table view names it.
        public init(row: Int, section: Int) {
            self.init(indexes: [section, row])
        }

        /// The first index (0 for an empty path).
        public var section: Int {
            get { count > 0 ? self[0] : 0 }
            set { self = IndexPath(indexes: [newValue, item]) }
        }

        /// The second index (0 for a path of fewer than two).
        public var item: Int {
            get { count > 1 ? self[1] : 0 }
            set { self = IndexPath(indexes: [section, newValue]) }
        }

        /// The second index, as a table view names it.
        public var row: Int {
            get { item }
            set { item = newValue }
        }
    }
#endif
