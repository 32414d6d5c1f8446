// UserRec is one row of the users table.
export interface UserRec {
  id: number;
  name: string;
  email: string;
}

// UserRecCount is how many users a page holds; it is not a user record.
export const UserRecCount = 50;
