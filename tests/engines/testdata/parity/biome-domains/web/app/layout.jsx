export default function Layout({ children }) {
  return (
    <html lang="en">
      <head>
        <title>Docs</title>
      </head>
      <body>{children}</body>
    </html>
  );
}
