#pragma once
// A process started with stdin, stdout or stderr closed would hand those numbers to the next
// files it opens: Qt's event loop, a server's socket, a bundle being written. A password
// prompt would then read Qt's eventfd and wait for ever, and a printf to stdout could land in
// a server connection. Opening /dev/null in their place first keeps 0, 1 and 2 what every
// reader and writer expects.

// Opens /dev/null as each of descriptors 0, 1 and 2 that is not open; the first thing main() does.
void openMissingStandardStreams();
