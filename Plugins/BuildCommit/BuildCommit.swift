import Foundation
import PackagePlugin

/// Writes `BuildCommit.swift` into the command line's target before every build: the commit the
/// sources were built from, for `imgcache --version`. A prebuild command (run each build, cheap)
/// asks git in the package's folder: the commit's first 12 hex digits, with "-dirty" when tracked
/// files differ from it. `$IMGCACHE_COMMIT`, when set, is used instead (a build from a source
/// tarball that knows its commit); without git or a repository the commit is "unknown". The file
/// is rewritten only when its text changes, so an unchanged commit recompiles nothing.
@main
struct BuildCommit: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let folder = context.pluginWorkDirectoryURL.appending(path: "Generated")
        let script = #"""
            set -u
            package=$1 folder=$2
            commit=${IMGCACHE_COMMIT:-}
            if [ -z "$commit" ]; then
              commit=$(git -C "$package" rev-parse --short=12 HEAD 2>/dev/null) || commit=unknown
              if [ "$commit" != unknown ] && ! git -C "$package" diff --quiet HEAD -- 2>/dev/null; then
                commit="$commit-dirty"
              fi
            fi
            commit=$(printf '%s' "$commit" | tr -cd 'A-Za-z0-9._+-' | cut -c1-64)
            mkdir -p "$folder"
            text=$(printf '/// Written by the BuildCommit plugin at build time: the commit imgcache was built from.\nenum BuildCommit {\n    static let id = "%s"\n}\n' "${commit:-unknown}")
            file="$folder/BuildCommit.swift"
            [ -f "$file" ] && [ "$(cat "$file")" = "$text" ] || printf '%s\n' "$text" > "$file"
            """#
        // git from PATH, and the commit a tarball build is given.
        let inherited = ProcessInfo.processInfo.environment
        let environment = ["PATH", "IMGCACHE_COMMIT"].reduce(into: [String: String]()) { $0[$1] = inherited[$1] }
        return [
            .prebuildCommand(
                displayName: "Writing the build's commit for imgcache --version",
                executable: URL(fileURLWithPath: "/bin/sh"),
                arguments: ["-c", script, "sh", context.package.directoryURL.path, folder.path],
                environment: environment,
                outputFilesDirectory: folder)
        ]
    }
}
