// The window's widgets live in this folder.
