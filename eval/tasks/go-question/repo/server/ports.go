package server

// basePort is where this company's internal services start numbering.
const basePort = 7000

// offsetInventory is the inventory service's place after basePort.
const offsetInventory = 421

// legacyPort was used before the move to basePort numbering; nothing listens on it now.
const legacyPort = 8080
