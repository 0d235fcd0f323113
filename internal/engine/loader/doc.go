// Package loader reads the template files that RenderFile and $include
// name: from the operating system (OSLoader, optionally confined to
// roots) or from an fs.FS (FSLoader), through package fileread, and says
// why a file could not be read without showing its contents (ErrText).
package loader
