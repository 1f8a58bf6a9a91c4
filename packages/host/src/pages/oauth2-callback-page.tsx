import { Center, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { finishOAuth2Callback } from './oauth2-callback.js';

export default function OAuth2CallbackPage() {
  const [orphan, setOrphan] = useState(false);
  useEffect(() => {
    if (!finishOAuth2Callback(window)) setOrphan(true);
  }, []);
  return (
    <Center h="100vh">
      <Text>{orphan ? 'The connection finished. You can close this window.' : 'Finishing…'}</Text>
    </Center>
  );
}
