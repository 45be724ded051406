#if canImport(Glibc)
import Glibc
#endif
import ImgCacheCommandLine

exit(CommandLineTool.run(Array(CommandLine.arguments.dropFirst())))
