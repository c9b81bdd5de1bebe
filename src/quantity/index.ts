export { QuantityError } from "./quantity-error.js";
export { type Quantity, type QuantityFormat, compareQuantity, ceilDiv, floorDiv } from "./quantity.js";
export { parseQuantity } from "./parse-quantity.js";
export { formatQuantity, formatMemoryBytes, bytesQuantity, canonicalQuantity } from "./format-quantity.js";
export { cpuMilli, formatCpuMilli, quantityMilli } from "./cpu-milli.js";
export { memoryBytes, quantityBytes } from "./memory-bytes.js";
