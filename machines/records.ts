/** A list of records with the record as stored: in its place when listed, else first (a new one). */
export const withRecord = <Item extends { _id: string }>(items: Item[], record: Item): Item[] =>
  items.some((item) => item._id === record._id)
    ? items.map((item) => (item._id === record._id ? record : item))
    : [record, ...items];
