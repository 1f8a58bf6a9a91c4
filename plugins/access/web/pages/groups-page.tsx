import { ALL } from '../access-api.js';
import { DirectoryList } from '../components/directory-list.js';

/** The groups that hold roles, with their roles (read-only; assign on the Assignments page). */
export default function GroupsPage() {
  return <DirectoryList title="Groups" resource="groups" keyField="name" keyLabel="Group name" pageSize={ALL} />;
}
