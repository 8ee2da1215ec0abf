"""Turn reports: events and state rendered to text, Markdown, BBCode, SVG, PDF and PNG."""
