import { PAGE_SIZE } from '../access-api.js';
import { DirectoryList } from '../components/directory-list.js';

/** The users that hold roles, with their roles (read-only; assign on the Assignments page). */
export default function UsersPage() {
  return <DirectoryList title="Users" resource="users" keyField="username" keyLabel="User name" pageSize={PAGE_SIZE} />;
}
