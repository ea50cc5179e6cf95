/// Files of a model bundle that tests write by hand.
public enum ModelFiles {
    /// The `.xccurrentversion` plist Xcode writes to name `name` the bundle's current version.
    public static func xccurrentversion(_ name: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
        \t<key>_XCCurrentVersionName</key>
        \t<string>\(name).xcdatamodel</string>
        </dict>
        </plist>
        """
    }
}
